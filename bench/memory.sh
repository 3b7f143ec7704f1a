#!/usr/bin/env bash
# Streaming benchmark: audit a ≥100 MB PGN file and print peak resident
# memory, wall time and throughput. Usage: bench/memory.sh [CORPUS_DIR]
# (default ../shared/corpora/tcec-s15). Needs /usr/bin/time (Debian: time).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpora/tcec-s15}"
cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/arbiter"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
big="$tmp/big.pgn"
: > "$big"
while [ "$(stat -c %s "$big")" -lt $((100 * 1024 * 1024)) ]; do
  for f in "$corpus"/*.pgn; do cat "$f"; printf '\n'; done >> "$big"
done
size=$(stat -c %s "$big")
/usr/bin/time -v "$bin" audit --format json "$big" > "$tmp/out.jsonl" 2> "$tmp/time.txt" || true
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$tmp/time.txt")
games=$(grep -c '"type":"game"' "$tmp/out.jsonl")
echo "input: $((size / 1024 / 1024)) MiB, $games games"
echo "peak RSS: $((rss / 1024)) MiB ($rss KiB)"
echo "wall time: $wall"
python3 - "$size" "$wall" <<'PY'
import sys
size=int(sys.argv[1]); w=sys.argv[2].split(':')
secs=sum(float(x)*60**i for i,x in enumerate(reversed(w)))
print(f"throughput: {size/secs/1e6:.1f} MB/s")
PY
