#!/usr/bin/env bash
# What reading a gzipped PGN file costs: `arbiter audit` of the same games
# as a plain file, as .pgn.gz and as .pgn.zst, side by side in one run.
# The files are made in a temporary folder from the PGN files of CORPUS
# (every one, joined: the TCEC archive's tcec-s15 or tcec-other); the runs go
# in rounds (plain, gzip, zstd, then again), so that the machine's drift
# falls on all three alike. Each figure is the median wall time of the
# ROUNDS rounds, with the ratio to the plain file's; the target is at most
# 1.3 for gzip (issue 61). The reports must be the same but for the input's
# name and hash: the script checks that too.
#
# Usage: CORPUS=../shared/corpora/tcec-s15 bench/compressed.sh [ARBITER_BINARY]
#        ROUNDS=5 (default 3)   RULES=rulesets/tcec-s15.rules (default: none)
set -euo pipefail
bin=${1:-target/release/arbiter}
corpus=${CORPUS:?set CORPUS to a folder of PGN files (../shared/corpora/tcec-s15)}
rounds=${ROUNDS:-3}
rules=()
[ -n "${RULES:-}" ] && rules=(--rules "$RULES")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$corpus"/*.pgn > "$tmp/g.pgn"
gzip -6 -c "$tmp/g.pgn" > "$tmp/g.pgn.gz"
if command -v zstd > /dev/null; then
  zstd -q -3 -c "$tmp/g.pgn" > "$tmp/g.pgn.zst"
  forms="pgn pgn.gz pgn.zst"
else
  forms="pgn pgn.gz"
fi
for f in $forms; do
  printf '%-8s %10d bytes\n' "$f" "$(stat -c %s "$tmp/g.$f")"
done
# the wall time of one audit, in seconds; its JSON lines kept
run() {
  local start end
  start=$(date +%s.%N)
  "$bin" audit "$tmp/g.$1" "${rules[@]}" --format json > "$tmp/out.$1" 2> /dev/null || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
for i in $(seq 1 "$rounds"); do
  for f in $forms; do
    echo "$f $(run "$f")" >> "$tmp/times"
  done
done
median() {
  grep "^$1 " "$tmp/times" | awk '{print $2}' | sort -n | awk '
    { t[NR] = $1 }
    END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}
plain=$(median pgn)
for f in $forms; do
  m=$(median "$f")
  printf '%-8s median %.3f s of %d runs, ratio to plain %.3f\n' "$f" "$m" "$rounds" "$(echo "$m / $plain" | bc -l)"
  # the same report, the input's name, hash and size aside
  if ! diff <(sed "s/g\.$f/g.pgn/g" "$tmp/out.$f" | sed -E 's/"sha256":"[0-9a-f]+","bytes":[0-9]+/"sha256":-/g') \
            <(sed -E 's/"sha256":"[0-9a-f]+","bytes":[0-9]+/"sha256":-/g' "$tmp/out.pgn") > /dev/null; then
    echo "$f: the report differs from the plain file's" >&2
    exit 1
  fi
done
