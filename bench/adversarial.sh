#!/usr/bin/env bash
# Hostile inputs, release build. Two tables:
#
#   1. growth: wall time and peak resident memory of `arbiter audit` at
#      growing sizes, to show that both grow at most linearly;
#   2. cases: every case of a hostile party (bench/hostile_inputs.py writes
#      them), each run under a 20 s limit and GNU time: its exit status,
#      wall time, peak RSS and the first line it said. Each must end in a
#      clear message or a finding, in under 10 s, within 64 MB, never in
#      134 (abort), 137 (killed) or 124 (the limit).
#
# tests/adversarial.rs and the tests it names check what each case reports;
# this only measures.
#
#   bench/adversarial.sh            # both tables, three sizes each
#   PART=cases bench/adversarial.sh # only the case table
#   MAX=6 bench/adversarial.sh      # stop the line counts at 10^6
#   SIM_GAMES=../shared/corpora/tcec-other bench/adversarial.sh
#                                   # adds `similarity --games` on that
#                                   # folder (skipped without it)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
A="$PWD/target/release/arbiter"
MAX="${MAX:-7}"
PART="${PART:-all}"
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

if [ "$PART" != cases ]; then
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
fi

[ "$PART" = growth ] && exit 0
h="$tmp/hostile"
python3 bench/hostile_inputs.py "$PWD" "$h"
repo="$PWD"

# hostile NAME CMD…: one run of CMD in $h under a 20 s limit (LIMIT
# seconds when set); a row of the case table. The message is the first line of standard error, else the
# last line of standard output (the verdict).
hostile() {
  local name="$1"
  shift
  local code=0
  (cd "$h" && /usr/bin/time -f "%e %M" -o "$tmp/t" timeout -k 1 "${LIMIT:-20}" "$@" \
    > "$tmp/out" 2> "$tmp/err" < /dev/null) || code=$?
  [ -s "$tmp/t" ] || echo "0 0" > "$tmp/t"
  read -r secs kb < <(grep -E '^[0-9.]+ [0-9]+$' "$tmp/t" | tail -1 || echo "20 0")
  rm -f "$tmp/t"
  local msg
  msg=$(grep -v '^Command \(exited\|terminated\)' "$tmp/err" | grep -m1 . || true)
  [ -n "$msg" ] || msg=$(grep . "$tmp/out" | tail -1 || true)
  msg=$(printf '%s' "$msg" | tr -d '\000-\037' | cut -c1-110 | sed 's/|/\\|/g')
  local verdict=ok
  case "$code" in 124|134|137|139) verdict=FAIL ;; esac
  awk -v s="$secs" -v kb="$kb" 'BEGIN { exit !(s >= 10 || kb * 1024 > 64e6) }' && verdict=FAIL
  printf '| %s | %s | %.2f | %.1f | %s | %s |\n' "$name" "$code" "$secs" "$(awk -v kb="$kb" 'BEGIN{print kb/1024}')" "$verdict" "$msg"
}

echo
echo "| case | exit | seconds | peak RSS MiB | verdict | message |"
echo "|---|---:|---:|---:|---|---|"
game="$repo/samples/kasparov-deep-junior-2003.pgn"
for r in chain-minus chain-plus chain-times chain-and chain-or list-1m if-100k \
  let-chain const-chain variant-chain; do
  hostile "ruleset: $r" "$A" audit --rules "$r.rules" "$game"
done
hostile "case folders, one ruleset a chain: audit --out" "$A" audit cases --out "$tmp/o1"
hostile "case folders, one ruleset a chain: batch" "$A" batch cases --out "$tmp/o2"
hostile "case.json: operator log ../" "$A" audit escape-dotdot
hostile "case.json: ruleset absolute" "$A" audit escape-ruleset
hostile "case.json: game absolute" "$A" audit escape-game
hostile "walk: link to itself" "$A" audit loop1
hostile "walk: two links back" "$A" audit loop2
hostile "walk: a FIFO named .pgn" "$A" audit fifo
hostile "walk: /dev/zero linked as .pgn" "$A" audit zero
hostile "PGN: 1 MB of } in movetext" "$A" audit braces.pgn
hostile "PGN: a game of 1,000,000 plies" "$A" audit million-plies.pgn
hostile "PGN: 320,000 NAGs" "$A" audit nags-320k.pgn
hostile "PGN: 2,000,000 NAGs" "$A" audit nags-2m.pgn
hostile "PGN: movetext after a blank line" "$A" audit blank-line.pgn
hostile "PGN: a tagless game between two" "$A" audit tagless.pgn
hostile "PGN: move numbers past 2^31" "$A" audit fullmove.pgn
hostile "PGN: a 10 MB tag section" "$A" audit big-tags.pgn
hostile "engine log: /dev/zero" "$A" audit "$game" --engine-log /dev/zero
truncate -s 1G "$h/huge.rules"
hostile "ruleset: 1 GB" "$A" audit --rules huge.rules "$game"
hostile "chart over its input" "$A" chart overwrite/game.pgn \
  --rules "$repo/rulesets/kasparov-deep-junior-2003.rules" --out overwrite/game.pgn
hostile "record --out over a case" "$A" record --engine "$h/engine.py normal" \
  --pgn "$game" --out cases/clean-a
hostile "record: engine hangs" "$A" record --engine "$h/engine.py hang" --pgn "$game" \
  --movetime 50 --out "$tmp/rec-hang"
hostile "record: engine plays an illegal move" "$A" record --engine "$h/engine.py illegal" \
  --pgn "$game" --side white --movetime 50 --out "$tmp/rec-illegal"
hostile "record: engine floods its output" "$A" record --engine "$h/engine.py flood" \
  --pgn "$game" --movetime 50 --out "$tmp/rec-flood"
hostile "record: wrapper engine that forks" "$A" record --engine "$h/wrapper.sh" \
  --pgn "$game" --movetime 50 --out "$tmp/rec-wrap"
for b in 18446744073709551615 100000000; do
  hostile "similarity --bootstrap $b" "$A" similarity --engine "a=$h/engine.py normal" \
    --engine "b=$h/engine.py normal" --positions "$repo/bench/similarity/positions.epd" \
    --movetime 10 --bootstrap "$b" --out "$tmp/sim-$b"
done
hostile "similarity: an engine floods its output" "$A" similarity --engine "a=$h/engine.py flood" \
  --engine "b=$h/engine.py normal" --positions "$repo/bench/similarity/positions.epd" \
  --movetime 10 --out "$tmp/sim-flood"
hostile "similarity --threads 10000" "$A" similarity --engine "a=$h/engine.py normal" \
  --engine "b=$h/engine.py normal" --positions "$repo/bench/similarity/positions.epd" \
  --movetime 10 --threads 10000 --out "$tmp/sim-t"
# the passive similarity test on a whole folder of games: its memory grows
# with the choices (16 bytes each) and the shared positions, not the games
if [ -n "${SIM_GAMES:-}" ] && [ -d "$SIM_GAMES" ]; then
  sim_games=$(cd "$SIM_GAMES" && pwd)
  LIMIT=600 hostile "similarity --games on $(basename "$sim_games") ($(du -sm "$sim_games" | cut -f1) MB)" \
    "$A" similarity --games "$sim_games" --out "$tmp/sim-games"
else
  echo "| similarity --games on a folder | | | | skipped | set SIM_GAMES to a folder of PGN files (e.g. ../shared/corpora/tcec-other) |"
fi
left=$(pgrep -f "sleep 1000|engine.py" | wc -l || true)
echo "| processes left after the engine cases | $left | | | $([ "$left" = 0 ] && echo ok || echo FAIL) | pgrep |"
# a signal while a report is being written (a batch writes its audit.jsonl
# as it goes): exit 130, no report and no temporary file left
mkdir -p "$h/many"
for _ in $(seq 1 3000); do cat "$game"; echo; done > "$h/many/many.pgn"
(cd "$h" && exec "$A" batch many --out "$tmp/sig" > /dev/null 2> "$tmp/sigerr") &
pid=$!
for _ in $(seq 1 1000); do
  ls -a "$tmp/sig" 2>/dev/null | grep -q '\.part$' && break
  sleep 0.01
done
kill -TERM "$pid" 2>/dev/null || true
code=0
wait "$pid" || code=$?
partial=$(find "$tmp/sig" -type f 2>/dev/null | wc -l)
echo "| SIGTERM while batch --out writes | $code | | | $([ "$code" = 130 ] && [ "$partial" = 0 ] && echo ok || echo FAIL) | $(head -1 "$tmp/sigerr" | cut -c1-80); $partial report files left |"
