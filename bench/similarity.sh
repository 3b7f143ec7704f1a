#!/bin/sh
# The similarity figures of the README, from Debian's engines.
#
# Usage: bench/similarity.sh ARBITER_BINARY OUT_DIR [MOVETIME_MS]
#
# Runs every engine twice (the second run is the self-similarity noise
# floor) over the 300 positions of bench/similarity/positions.epd (built
# from TCEC Season 15 games by scripts/make_positions.py), 100 ms a move by
# default, two engines at a time. The run is resumable: run it again with
# the same OUT_DIR to finish an interrupted run. Writes OUT_DIR/similarity.json,
# heatmap.svg, dendrogram.svg and prints the matrix and the z-scores.
# Needs Debian's engines: apt-get install stockfish fairy-stockfish glaurung
# toga2 ethereal-chess gnuchess phalanx
set -e
bin=$1
out=$2
mt=${3:-100}
if [ -z "$bin" ] || [ -z "$out" ]; then
  sed -n '2,13p' "$0"
  exit 2
fi
here=$(dirname "$0")
"$bin" similarity --positions "$here/similarity/positions.epd" --movetime "$mt" --out "$out" \
  --engine stockfish=/usr/games/stockfish \
  --engine fairy-stockfish=/usr/games/fairy-stockfish \
  --engine glaurung=/usr/games/glaurung \
  --engine toga2=/usr/games/toga2 \
  --engine ethereal=/usr/games/ethereal-chess \
  --engine "gnuchess=/usr/games/gnuchess --uci" \
  --engine phalanx=/usr/games/phalanx
