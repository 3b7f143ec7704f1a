#!/usr/bin/env bash
# Peak resident memory against the 64 MB target, on the inputs of issue 15:
#
#   1. a 1 GB archive (the S15 corpus concatenated COPIES times, default 80),
#      read by `arbiter audit` with tcec-s15.rules (JSON Lines to a file) and
#      by `arbiter batch` with the same ruleset (tables and summary);
#   2. an engine log of 10^LOG_EXP info lines (default 7) for one game
#      (samples/kasparov-deep-junior-2003/clean), audited with its ruleset;
#   3. the same with 10^(LOG_EXP-1) info lines shaped like Stockfish's
#      (about 300 bytes each, a PV of 36 moves): the bulk of a real log.
#
# Usage: bench/memory.sh [CORPUS_DIR] (default ../shared/corpora/tcec-s15)
#        COPIES=8 LOG_EXP=6 bench/memory.sh    # smaller, quicker
# Needs GNU time (/usr/bin/time) and python3. Prints one line per run:
# input size, wall time, MB/s and peak RSS, and whether it is within 64 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpora/tcec-s15}"
copies="${COPIES:-80}"
log_exp="${LOG_EXP:-7}"
cargo build --release -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run from a fresh copy, so that every page of the program is in memory
# as after a build: a binary whose pages the kernel has given back since
# maps fewer of them, and its peak resident memory reads 2 to 3 MiB lower
bin="$tmp/arbiter"
cp "${CARGO_TARGET_DIR:-target}/release/arbiter" "$bin"

# name input-file arbiter-args…: one run under GNU time
measure() {
  local name="$1" input="$2"
  shift 2
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$bin" "$@" > "$tmp/out" 2> "$tmp/err" || true
  if grep -q "panicked" "$tmp/err"; then echo "PANIC in $name"; cat "$tmp/err"; exit 1; fi
  read -r secs kb < <(tail -1 "$tmp/t")   # GNU time may first say the exit status
  # the target is 64 MB, 64,000,000 bytes: 61.0 MiB
  awk -v n="$name" -v s="$secs" -v kb="$kb" -v b="$(stat -c %s "$input")" 'BEGIN {
    mib = kb / 1024
    printf "%-44s %9.1f MB %8.2f s %7.1f MB/s %8.1f MiB peak RSS  %s\n",
      n, b / 1e6, s, b / 1e6 / s, mib, (kb * 1024 <= 64e6 ? "within 64 MB" : "OVER 64 MB (61.0 MiB)") }'
}

big="$tmp/big.pgn"
one="$tmp/one.pgn"
cat "$corpus"/*.pgn > "$one"
i=0
while [ "$i" -lt "$copies" ]; do cat "$one" >> "$big"; i=$((i + 1)); done
measure "audit, tcec-s15.rules (S15 x$copies)" "$big" \
  audit --rules rulesets/tcec-s15.rules --format json "$big"
measure "audit, no ruleset (S15 x$copies)" "$big" audit --format json "$big"
measure "batch, tcec-s15.rules, 2 threads (S15 x$copies)" "$big" \
  batch "$big" --rules rulesets/tcec-s15.rules --out "$tmp/batch" --threads 2
rm -f "$big"

case_dir=samples/kasparov-deep-junior-2003/clean
n=$((10**log_exp))
python3 bench/flood_engine_log.py "$n" "$case_dir/engine.log" "$tmp/flood.log"
measure "engine log of 10^$log_exp info lines" "$tmp/flood.log" \
  audit --rules rulesets/kasparov-deep-junior-2003.rules --format json \
  --engine-log "$tmp/flood.log" --operator-log "$case_dir/operator.log" "$case_dir/game.pgn"
rm -f "$tmp/flood.log"
python3 bench/flood_engine_log.py --stockfish "$((n / 10))" "$case_dir/engine.log" "$tmp/flood.log"
measure "engine log, 10^$((log_exp - 1)) Stockfish-shaped lines" "$tmp/flood.log" \
  audit --rules rulesets/kasparov-deep-junior-2003.rules --format json \
  --engine-log "$tmp/flood.log" --operator-log "$case_dir/operator.log" "$case_dir/game.pgn"
