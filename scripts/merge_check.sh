#!/bin/sh
# A batch whole, and in N shards merged, compared byte for byte
# (docs/batch.md, "Shards"):
#   scripts/merge_check.sh OUT N INPUT... -- BATCH-OPTIONS...
# e.g. scripts/merge_check.sh /tmp/mc 3 ../shared/corpora/tcec-other -- \
#        --rules rulesets/tcec-s15.rules --syzygy ../shared/syzygy --fit
# Prints the merge's verdict, then IDENTICAL, or what differs (exit 1).
set -e
A=${ARBITER:-target/release/arbiter}
out=$1; n=$2; shift 2
inputs=""
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do inputs="$inputs $1"; shift; done
[ "$#" -gt 0 ] && shift
rm -rf "$out"; mkdir -p "$out"
# a batch with findings exits 1: only 2 (could not run) stops the check
run() { "$A" "$@" -q 2>/dev/null || [ $? -eq 1 ]; }
run batch $inputs "$@" --out "$out/whole"
shards=""
k=1
while [ $k -le "$n" ]; do
  run batch $inputs "$@" --shard "$k/$n" --out "$out/s$k"
  shards="$shards $out/s$k"
  k=$((k + 1))
done
"$A" merge $shards --out "$out/merged" 2>&1 | tail -1
diff -r "$out/whole" "$out/merged" && echo IDENTICAL
