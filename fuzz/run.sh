#!/usr/bin/env bash
# Run the fuzz targets, one after the other, each for SECONDS (default
# 600), starting from the committed seeds (fuzz/seeds/TARGET) and the
# working corpus (fuzz/corpus/TARGET, not committed). Needs the nightly
# toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Built with
# optimisations and debug assertions (-O -a), so that an arithmetic
# overflow is a crash too.
#
#   fuzz/run.sh [SECONDS] [TARGET…]
#
# A crash or a hang (an input slower than 10 s) stops the target and
# leaves the input in fuzz/artifacts/TARGET/; each one found so far is a
# regression test in tests/adversarial.rs. libFuzzer's last status line
# (coverage, features, corpus size, executions) is printed per target.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(pgn engine_log operator_log rules rules_shapes)
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  log="run-$t.log"
  cargo +nightly fuzz run -O -a "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 >"$log" 2>&1 || echo "$t: stopped early (see fuzz/$log and fuzz/artifacts/$t/)"
  echo "$t: $(grep -E '^#[0-9]+' "$log" | tail -1)"
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | sed "s/^/$t: /" || true
done
