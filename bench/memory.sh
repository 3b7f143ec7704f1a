#!/usr/bin/env bash
# Peak resident memory of each subcommand on a large input, against the
# 64 MB target (issues 15 and 60):
#
#   1. an archive of SIZE_MB megabytes (default 64; SIZE_MB=1000 for the
#      1 GB of the issues), made on the fly by concatenating the PGN files
#      of CORPUS_DIR (default ../shared/corpora/tcec-s15; samples/ where it
#      is missing) until it is that large, read by `audit` (with and
#      without tcec-s15.rules), `audit --out` then `verify` of its report,
#      `batch`, `rules fit` (per file and per event), `similarity --games`
#      and `hidden-book`;
#   2. an engine log of 10^LOG_EXP info lines (default 6) for one game
#      (samples/kasparov-deep-junior-2003/clean), audited with its ruleset;
#   3. the same with 10^(LOG_EXP-1) info lines shaped like Stockfish's
#      (about 300 bytes each, a PV of 36 moves): the bulk of a real log.
#
# Usage: bench/memory.sh [CORPUS_DIR]
#        SIZE_MB=1000 LOG_EXP=7 bench/memory.sh    # the issues' sizes
#        BIN=target/release/arbiter bench/memory.sh   # no build first
#        ONLY="audit batch" bench/memory.sh   # the rows whose command starts so
# Needs GNU time (/usr/bin/time) and python3. Prints a Markdown table: the
# command, the input's size, the peak RSS, the wall time and the exit
# status, and whether the run stayed within 64 MB (64,000,000 bytes:
# 61.0 MiB). A limit reached by design (a fit over its cap) shows as exit
# 2 and its message on standard error is kept in the last column.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpora/tcec-s15}"
[ -d "$corpus" ] || corpus=samples
size_mb="${SIZE_MB:-64}"
log_exp="${LOG_EXP:-6}"
only="${ONLY:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${BIN:-}" ]; then
  cargo build --release -q
  BIN="${CARGO_TARGET_DIR:-target}/release/arbiter"
fi
# run from a fresh copy, so that every page of the program is in memory
# as after a build: a binary whose pages the kernel has given back since
# maps fewer of them, and its peak resident memory reads 2 to 3 MiB lower
bin="$tmp/arbiter"
cp "$BIN" "$bin"

echo "| command | input MB | peak RSS MiB | seconds | exit | within 64 MB | note |"
echo "|---|---:|---:|---:|---:|---|---|"

# name input-path arbiter-args…: one run under GNU time, one row
measure() {
  local name="$1" input="$2"
  shift 2
  if [ -n "$only" ]; then
    local keep=0 w
    for w in $only; do case "$name" in "$w"*) keep=1 ;; esac; done
    [ "$keep" = 1 ] || return 0
  fi
  local code=0
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$bin" "$@" > "$tmp/out" 2> "$tmp/err" || code=$?
  if grep -q "panicked" "$tmp/err"; then echo "PANIC in $name"; cat "$tmp/err"; exit 1; fi
  local secs kb
  read -r secs kb < <(tail -1 "$tmp/t")   # GNU time may first say the exit status
  local bytes note
  bytes=$(du -sb "$input" | cut -f1)
  # what a run that stops by design said, shortened
  note=$(grep -m1 -o "a fit holds at most [^;]*" "$tmp/err" || true)
  awk -v n="$name" -v s="$secs" -v kb="$kb" -v b="$bytes" -v c="$code" -v note="$note" 'BEGIN {
    printf "| %s | %.1f | %.1f | %.2f | %d | %s | %s |\n",
      n, b / 1e6, kb / 1024, s, c, (kb * 1024 <= 64e6 ? "yes" : "NO"), note }'
}

big="$tmp/big.pgn"
: > "$big"
while [ "$(stat -c %s "$big")" -lt $((size_mb * 1000000)) ]; do
  for f in "$corpus"/*.pgn; do
    cat "$f" >> "$big"
    [ "$(stat -c %s "$big")" -lt $((size_mb * 1000000)) ] || break
  done
done
rules=rulesets/tcec-s15.rules
measure "audit --rules" "$big" audit --rules "$rules" --format json "$big"
measure "audit (no ruleset)" "$big" audit --format json "$big"
measure "audit --out" "$big" audit --rules "$rules" --out "$tmp/report" "$big"
[ -d "$tmp/report" ] && measure "verify (of the audit --out)" "$big" verify "$tmp/report"
rm -rf "$tmp/report"
measure "batch --threads 2" "$big" batch "$big" --rules "$rules" --out "$tmp/batch" --threads 2
rm -rf "$tmp/batch"
measure "rules fit (per file)" "$big" rules fit "$big" --rules "$rules"
measure "rules fit --per event" "$big" rules fit "$big" --rules "$rules" --per event
measure "similarity --games" "$big" similarity --games "$big" --out "$tmp/sim"
rm -rf "$tmp/sim"
measure "hidden-book" "$big" hidden-book "$big"
rm -f "$big"

case_dir=samples/kasparov-deep-junior-2003/clean
n=$((10**log_exp))
python3 bench/flood_engine_log.py "$n" "$case_dir/engine.log" "$tmp/flood.log"
measure "audit, engine log of 10^$log_exp info lines" "$tmp/flood.log" \
  audit --rules rulesets/kasparov-deep-junior-2003.rules --format json \
  --engine-log "$tmp/flood.log" --operator-log "$case_dir/operator.log" "$case_dir/game.pgn"
rm -f "$tmp/flood.log"
python3 bench/flood_engine_log.py --stockfish "$((n / 10))" "$case_dir/engine.log" "$tmp/flood.log"
measure "audit, engine log of 10^$((log_exp - 1)) Stockfish-shaped lines" "$tmp/flood.log" \
  audit --rules rulesets/kasparov-deep-junior-2003.rules --format json \
  --engine-log "$tmp/flood.log" --operator-log "$case_dir/operator.log" "$case_dir/game.pgn"
rm -f "$tmp/flood.log"
