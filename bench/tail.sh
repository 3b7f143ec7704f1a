#!/usr/bin/env bash
# How long a batch's reports take after the last game: from the opening of
# the first table file (games.csv) to the opening of summary.html, read from
# `strace -f -tt -e trace=openat` (only the opening of files is traced, so
# the run is barely slowed). Two builds are run in turn, N times each, and
# each one's times are printed sorted, with their median. The reports run
# on one core while the other waits (docs/performance.md: the batch's
# tail), so a change there shows here before it shows in wall time.
#
# Usage: bench/tail.sh BINARY_A BINARY_B N BATCH_ARGS… (`--out` is added)
#   e.g. bench/tail.sh target/release/arbiter /tmp/old/arbiter 12 big.pgn \
#          --rules rulesets/tcec-s15.rules --threads 2
# Needs strace. Linux only.
set -euo pipefail
if [ "$#" -lt 4 ]; then
  sed -n '2,13p' "$0"
  exit 2
fi
a=$1 b=$2 n=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$n"); do
  for which in a b; do
    bin=$a
    [ "$which" = b ] && bin=$b
    strace -f -tt -e trace=openat -o "$tmp/trace" "$bin" batch "$@" --out "$tmp/out" > /dev/null 2>&1 || true
    awk -v w="$which" '
      function ms(t,  p) { split(t, p, ":"); return (p[1] * 3600 + p[2] * 60 + p[3]) * 1000 }
      /games\.csv/ && !g { g = ms($2) }
      /summary\.html/ { h = ms($2) }
      END { if (g && h) printf "%s %.1f\n", w, h - g }' "$tmp/trace" >> "$tmp/times"
  done
done
for which in a b; do
  bin=$a
  [ "$which" = b ] && bin=$b
  sort -n -k2 <(grep "^$which " "$tmp/times") | awk -v bin="$bin" '
    { t[NR] = $2; all = all " " $2 }
    END {
      if (NR == 0) { print bin ": no reports traced"; exit }
      m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
      printf "%s: median %.1f ms of %d runs (ms:%s)\n", bin, m, NR, all }'
done
