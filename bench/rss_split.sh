#!/usr/bin/env bash
# Where a run's peak resident memory lies: samples /proc/PID/status every
# 20 ms while the command runs and prints, at the largest VmRSS seen, its
# anonymous part (the heap, the stacks, relocated data) and its part read
# from files (the program's own code and data pages), and the threads then
# alive. A sampled peak can miss a spike shorter than 20 ms; GNU time's
# figure (bench/memory.sh) is the exact maximum.
#
# Usage: bench/rss_split.sh COMMAND [ARGS…]
#   e.g. bench/rss_split.sh target/release/arbiter batch big.pgn \
#          --rules rulesets/tcec-s15.rules --out /tmp/o --threads 2
#        TRACE=1 bench/rss_split.sh …   # also each sample: ms since the
#                                        # start, VmRSS in KiB (where in the
#                                        # run the memory grows)
set -euo pipefail
if [ "$#" -lt 1 ]; then
  sed -n '2,15p' "$0"
  exit 2
fi
"$@" > /dev/null 2>&1 &
pid=$!
start=$(date +%s%N)
peak=0
line=""
while kill -0 "$pid" 2> /dev/null; do
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2> /dev/null || true)
  if [ -n "${TRACE:-}" ] && [ -n "$rss" ]; then
    echo "$(( ($(date +%s%N) - start) / 1000000 )) ms  $rss KiB"
  fi
  if [ -n "$rss" ] && [ "$rss" -gt "$peak" ]; then
    peak=$rss
    line=$(awk '/^(VmRSS|RssAnon|RssFile|Threads)/ {
      printf "%s %s%s  ", $1, ($1 == "Threads:" ? $2 : sprintf("%.1f", $2 / 1024)), ($1 == "Threads:" ? "" : " MiB") }' \
      "/proc/$pid/status" 2> /dev/null || true)
  fi
  sleep 0.02
done
wait "$pid" || true
echo "at the sampled peak: $line"
