#!/usr/bin/env bash
# Two builds timed in turn (A B, B A, A B, …) on the same command line, to compare
# them when the machine's speed drifts: each pair's ratio A/B of wall time,
# then the median of the ratios, with each build's median wall time and
# largest peak RSS. This is how the "median of N pairs" figures of
# docs/performance.md are taken.
#
# Usage: bench/pairs.sh BINARY_A BINARY_B PAIRS ARGS…
#   e.g. bench/pairs.sh target/release/arbiter /tmp/old/arbiter 7 \
#          batch big.pgn --rules rulesets/tcec-s15.rules --threads 1 --out /tmp/o
# Needs GNU time (/usr/bin/time). One warm-up run of each is not counted.
set -euo pipefail
if [ "$#" -lt 4 ]; then
  sed -n '2,12p' "$0"
  exit 2
fi
a=$1 b=$2 pairs=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one run: "wall_seconds peak_kib" (the program's own exit status is ignored:
# 1 means findings). The wall time is the shell's clock, in microseconds,
# around GNU time (whose own is in hundredths of a second: a tenth of a
# second's run was rounded by up to 2.5%); GNU time gives the peak memory.
run() {
  local t0=$EPOCHREALTIME
  /usr/bin/time -f "%M" -o "$tmp/t" "$@" > /dev/null 2>&1 || true
  local t1=$EPOCHREALTIME
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') $(tail -1 "$tmp/t")"
}

# Each build is timed from a fresh copy: the two files' pages are then
# equally in memory. A build made an hour ago, whose pages the kernel has
# given back (this machine reclaims pages left untouched for some
# seconds), faults its code in again, and its runs were slower and its
# peak resident memory 2 to 3 MiB lower than the same code freshly built.
cp "$a" "$tmp/a"
cp "$b" "$tmp/b"
shown_a=$a
shown_b=$b
a=$tmp/a
b=$tmp/b

run "$a" "$@" > /dev/null
run "$b" "$@" > /dev/null
: > "$tmp/rows"
i=0
# The build run second in a pair was about 2% faster on this machine
# whichever it was, so the order turns from pair to pair (A B, then B A):
# each build runs first in half the pairs. A fifth column says which ran
# first.
while [ "$i" -lt "$pairs" ]; do
  if [ $((i % 2)) -eq 0 ]; then
    read -r wa ma < <(run "$a" "$@")
    read -r wb mb < <(run "$b" "$@")
    first=A
  else
    read -r wb mb < <(run "$b" "$@")
    read -r wa ma < <(run "$a" "$@")
    first=B
  fi
  echo "$wa $ma $wb $mb $first" >> "$tmp/rows"
  i=$((i + 1))
done
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wa=$(awk '{ print $1 }' "$tmp/rows" | median)
wb=$(awk '{ print $3 }' "$tmp/rows" | median)
ratio=$(awk '$3 > 0 { print $1 / $3 }' "$tmp/rows" | median)
pa=$(awk '{ print $2 }' "$tmp/rows" | sort -g | tail -1)
pb=$(awk '{ print $4 }' "$tmp/rows" | sort -g | tail -1)
printf 'A %s: median wall %.3f s, peak %.1f MiB\n' "$shown_a" "$wa" "$(awk -v k="$pa" 'BEGIN { print k / 1024 }')"
printf 'B %s: median wall %.3f s, peak %.1f MiB\n' "$shown_b" "$wb" "$(awk -v k="$pb" 'BEGIN { print k / 1024 }')"
ratio_a=$(awk '$3 > 0 && $5 == "A" { print $1 / $3 }' "$tmp/rows" | median)
ratio_b=$(awk '$3 > 0 && $5 == "B" { print $1 / $3 }' "$tmp/rows" | median)
three() { if [ -n "$1" ]; then printf '%.3f' "$1"; else printf 'none'; fi; }
printf 'A/B wall, median of the pairs with A first: %s, with B first: %s\n' "$(three "$ratio_a")" "$(three "$ratio_b")"
printf 'A/B wall, median of %d pairs: %.3f\n' "$pairs" "$ratio"
