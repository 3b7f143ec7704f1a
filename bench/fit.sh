#!/usr/bin/env bash
# What `--fit` costs: `batch --fit` against `batch` on the same archive,
# run in turn pair by pair under GNU time, without and with the Syzygy
# tables. Prints each command's median wall and CPU seconds and the ratio
# fit/plain.
#
# Usage: bench/fit.sh ARBITER_BINARY RULESET ARCHIVE... [-- SYZYGY_DIR]
#   e.g. bench/fit.sh target/release/arbiter rulesets/tcec-s15.rules \
#          ../shared/corpora/tcec-other/TCEC_Season_28_-_4k_V_Minifinal.pgn -- ../shared/syzygy
# RUNS=N sets the runs per command (default 5).
set -euo pipefail
if [ "$#" -lt 3 ]; then
  sed -n '2,11p' "$0"
  exit 2
fi
bin=$1 rules=$2
shift 2
archives=() syzygy=""
while [ "$#" -gt 0 ]; do
  if [ "$1" = "--" ]; then syzygy=${2:-}; break; fi
  archives+=("$1"); shift
done
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the median of the numbers on standard input
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

one() { # label, then the arguments after `batch ARCHIVES --rules RULES`
  local label=$1; shift
  local plain=("$bin" batch "${archives[@]}" --rules "$rules" --out "$tmp/plain" "$@")
  local fit=("$bin" batch "${archives[@]}" --rules "$rules" --fit --out "$tmp/fit" "$@")
  "${plain[@]}" > /dev/null 2>&1 || [ $? -eq 1 ] # warm the page cache; exit 1 is findings
  : > "$tmp/p.txt"; : > "$tmp/f.txt"
  for _ in $(seq "$runs"); do
    for which in p f; do
      if [ $which = p ]; then cmd=("${plain[@]}"); else cmd=("${fit[@]}"); fi
      /usr/bin/time -f "%e %U %S" -o "$tmp/t" "${cmd[@]}" > /dev/null 2>&1 || true
      # the last line: time writes "Command exited with non-zero status 1"
      # before the figures when the audit finds violations
      tail -n 1 "$tmp/t" >> "$tmp/$which.txt"
    done
  done
  local pw pc fw fc
  pw=$(awk '{print $1}' "$tmp/p.txt" | median); pc=$(awk '{print $2 + $3}' "$tmp/p.txt" | median)
  fw=$(awk '{print $1}' "$tmp/f.txt" | median); fc=$(awk '{print $2 + $3}' "$tmp/f.txt" | median)
  printf '%-16s batch %6.2f s wall %6.2f s cpu | batch --fit %6.2f s wall %6.2f s cpu | fit/plain %5.1fx wall %5.1fx cpu\n' \
    "$label" "$pw" "$pc" "$fw" "$fc" "$(echo "$fw / $pw" | bc -l)" "$(echo "$fc / $pc" | bc -l)"
}

echo "bench/fit.sh: $runs runs each, medians; $(nproc) cores; ${archives[*]}"
one "no tables"
[ -n "$syzygy" ] && one "with --syzygy" --syzygy "$syzygy"
exit 0
