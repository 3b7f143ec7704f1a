#!/usr/bin/env bash
# Each thread's own CPU time in one run of a command: where the time of a
# batch goes, by thread (the main thread writing the lines, the tables and
# the event-level stage; arbiter-reader hashing and cutting the input;
# arbiter-auditN the workers). perf's samples on a virtual machine can put
# time in the kernel that the threads never spent there; the kernel's own
# count of each thread's time on a CPU does not.
#
# Usage: bench/threads.sh ARBITER_BINARY ARGS…
#   e.g. bench/threads.sh target/release/arbiter batch big.pgn \
#          --rules rulesets/tcec-s15.rules --threads 1 --out /tmp/o
#        RUNS=5 bench/threads.sh …      # runs (default 3), each printed
#
# It reads /proc/PID/task/TID/schedstat (the first field: ns on a CPU)
# every 2 ms while the command runs and keeps each thread's last reading,
# so a thread's last 2 ms or less may be missed. The polling itself takes
# some CPU beside the command: time a change with bench/pairs.sh, not here.
# Linux only.
set -euo pipefail
if [ "$#" -lt 2 ]; then
  sed -n '2,18p' "$0"
  exit 2
fi
runs=${RUNS:-3}
for run in $(seq 1 "$runs"); do
  "$@" > /dev/null 2>&1 &
  pid=$!
  declare -A ns=() name=()
  while kill -0 "$pid" 2> /dev/null; do
    for t in /proc/"$pid"/task/*; do
      tid=${t##*/}
      if read -r cpu _ < "$t/schedstat" 2> /dev/null; then
        ns[$tid]=$cpu
        # read at every look: a thread is named just after it starts, and
        # the main thread has the shell's name until the command starts
        read -r n < "$t/comm" 2> /dev/null && name[$tid]=$n
      fi
    done
    sleep 0.002
  done
  wait "$pid" || true
  echo "run $run:"
  for tid in $(printf '%s\n' "${!ns[@]}" | sort -n); do
    # threads that took no measurable time (polars' pool, the tables'
    # helper) are left out
    if [ "${ns[$tid]}" -ge 1000000 ]; then
      shown=${name[$tid]:-?}
      [ "$tid" = "$pid" ] && shown="main ($shown)"
      printf '  %-20s %6d.%d ms\n' "$shown" $((ns[$tid] / 1000000)) $((ns[$tid] / 100000 % 10))
    fi
  done
  unset ns name
done
