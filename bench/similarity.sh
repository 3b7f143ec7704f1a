#!/bin/sh
# The similarity figures of docs/similarity.md, from Debian's engines.
#
# Usage: bench/similarity.sh ARBITER_BINARY OUT_DIR [DEPTH]
#
# Runs every engine twice (the second run is the self-similarity noise
# floor) over the 300 positions of bench/similarity/positions.epd (built
# from TCEC Season 15 games by scripts/make_positions.py), at a fixed depth
# (8 by default: one thread and a fixed depth make every answer
# reproducible), two engines at a time. Stockfish runs twice over: with its
# network (Use NNUE on) and with its classical evaluation (off). The run is
# resumable: run it again with the same OUT_DIR to finish an interrupted
# run, or to analyse again. Writes OUT_DIR/answers.jsonl, similarity.json,
# heatmap.svg, residuals.svg and dendrogram.svg, and prints the move-match
# matrix, the z-scores and the evaluation signatures.
# Needs Debian's engines: apt-get install stockfish fairy-stockfish glaurung
# toga2 ethereal-chess gnuchess
# (phalanx speaks only xboard; arbiter drives UCI engines.)
set -e
bin=$1
out=$2
depth=${3:-8}
if [ -z "$bin" ] || [ -z "$out" ]; then
  sed -n '2,20p' "$0"
  exit 2
fi
here=$(dirname "$0")
"$bin" similarity --positions "$here/similarity/positions.epd" --depth "$depth" --out "$out" \
  --engine stockfish=/usr/games/stockfish \
  --engine stockfish-classical=/usr/games/stockfish \
  --option "stockfish-classical:Use NNUE=false" \
  --engine fairy-stockfish=/usr/games/fairy-stockfish \
  --engine glaurung=/usr/games/glaurung \
  --engine toga2=/usr/games/toga2 \
  --engine ethereal=/usr/games/ethereal-chess \
  --engine "gnuchess=/usr/games/gnuchess --uci"
