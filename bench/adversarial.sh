#!/usr/bin/env bash
# Hostile inputs at growing sizes: wall time and peak resident memory of
# `arbiter audit` (release build), to show that both grow at most linearly.
# tests/adversarial.rs checks what each case reports; this only measures.
#
#   bench/adversarial.sh            # every case, three sizes each
#   MAX=6 bench/adversarial.sh      # stop the line counts at 10^6
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
A="$PWD/target/release/arbiter"
MAX="${MAX:-7}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# case n sized-file audit-args…: one measured run of `arbiter audit
# audit-args…`; the input size is that of sized-file
measure() {
  local case="$1" n="$2" file="$3"
  shift 3
  local bytes
  bytes=$(stat -c %s "$file")
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$A" audit "$@" >/dev/null 2>"$tmp/err" || true
  if grep -q "panicked" "$tmp/err"; then echo "PANIC in $case n=$n"; cat "$tmp/err"; exit 1; fi
  read -r secs kb < <(tail -1 "$tmp/t")   # GNU time may first say the exit status
  python3 -c "
n=$n; s=$secs; kb=$kb; b=$bytes
print(f'| $case | {n:>11,} | {b/1e6:9.1f} | {s:7.2f} | {kb/1024:9.1f} | {1e9*s/n:9.1f} |')"
}

echo "| case | n | input MB | seconds | peak RSS MiB | ns per unit |"
echo "|---|---:|---:|---:|---:|---:|"
# pgn kind n file: a game with n nested variations, or an n-character comment
pgn() {
  python3 - "$@" <<'PY'
import sys
kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
head = '[Event "E"]\n[Site "?"]\n[Date "2019.01.01"]\n[Round "1"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
body = ('1. e4 ' + '(' * n + '1. d4' + ')' * n + ' e5 *\n') if kind == 'nested' else ('1. e4 {' + 'x' * n + '} e5 *\n')
open(out, 'w').write(head + body)
PY
}
for e in 4 5 6; do
  n=$((10**e))
  pgn nested "$n" "$tmp/nested.pgn"
  measure "nested variations (depth n)" "$n" "$tmp/nested.pgn" "$tmp/nested.pgn"
done
for e in 5 6 7; do
  n=$((10**e))
  pgn comment "$n" "$tmp/comment.pgn"
  measure "comment of n characters" "$n" "$tmp/comment.pgn" "$tmp/comment.pgn"
done
case_dir=samples/kasparov-deep-junior-2003/clean
for e in $(seq 5 "$MAX"); do
  n=$((10**e))
  python3 bench/flood_engine_log.py "$n" "$case_dir/engine.log" "$tmp/flood.log"
  measure "engine log of n info lines" "$n" "$tmp/flood.log" "$case_dir/game.pgn" \
    --rules rulesets/kasparov-deep-junior-2003.rules --engine-log "$tmp/flood.log" \
    --operator-log "$case_dir/operator.log"
done
