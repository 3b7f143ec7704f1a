#!/usr/bin/env bash
# A build of arbiter optimised with a profile of its own runs (profile-
# guided optimisation): the compiler is told which branches and calls are
# the hot ones, and lays out and inlines the code for them. The same
# sources, the same outputs; only the machine code differs.
#
# It builds arbiter instrumented, runs it on the training inputs (the
# shipped samples/ with their rulesets, and every PGN under the training
# folders, audited without a ruleset and judged with each seed ruleset),
# merges the profile, and builds arbiter again with it. The binary is
# TARGET_DIR/use/HOST/release/arbiter (printed at the end).
#
# The default training set is what the repository ships (samples/ and
# tests/fixtures/: 3.5 MB of records, the engine and operator logs of the
# samples), and its TCEC records rewritten into cutechess-cli's,
# fastchess's and lichess's comments by scripts/gui_forms.py (when
# python3 is there): a profile made without the archive being audited
# (of S15's 428 games, the samples hold three). Add folders or files to
# train on more.
#
# Usage: bench/pgo.sh [TRAINING_FOLDER_OR_PGN...]
#   TARGET_DIR=target/pgo (default)
# Needs llvm-profdata of the LLVM version rustc uses: `rustup component
# add llvm-tools` installs it beside rustc (the script finds it there, or
# as llvm-profdata-N or llvm-profdata on the PATH when its version
# matches). Two release builds: about twice the time of one.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
host=$(rustc -vV | sed -n 's/^host: //p')
llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=
for p in "$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata" \
  "$(command -v "llvm-profdata-$llvm" || true)" "$(command -v llvm-profdata || true)"; do
  [ -n "$p" ] && [ -x "$p" ] || continue
  if "$p" --version 2> /dev/null | grep -q "LLVM version $llvm\."; then
    profdata=$p
    break
  fi
done
if [ -z "$profdata" ]; then
  echo "bench/pgo.sh: no llvm-profdata of LLVM $llvm (rustc's); install it with: rustup component add llvm-tools" >&2
  exit 2
fi
dir=${TARGET_DIR:-target/pgo}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
rm -rf "$dir/raw" "$dir/merged.profdata"

# --target keeps the flags off build scripts and procedural macros
echo "bench/pgo.sh: building instrumented ($dir/gen)" >&2
RUSTFLAGS="-Cprofile-generate=$dir/raw" \
  cargo build --release --quiet --bin arbiter --target "$host" --target-dir "$dir/gen"
gen="$dir/gen/$host/release/arbiter"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
train() {
  # a run that finds violations exits 1; only a failure to run (2) stops
  local rc=0
  "$gen" "$@" > /dev/null 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "bench/pgo.sh: training run failed ($rc): arbiter $*" >&2
    exit 2
  fi
}
echo "bench/pgo.sh: training" >&2
train audit samples/ --out "$tmp/samples"
inputs=("$@")
[ "${#inputs[@]}" -eq 0 ] && inputs=(samples tests/fixtures)
mapfile -t pgns < <(find "${inputs[@]}" -name '*.pgn' -type f | LC_ALL=C sort)
# the TCEC records among them rewritten into the other GUIs' move comments
# too (scripts/gui_forms.py), so that each form's reader is trained
mapfile -t tcec < <(grep -l 'wv=' "${pgns[@]}" || true)
if [ "${#tcec[@]}" -gt 0 ] && command -v python3 > /dev/null; then
  for form in cutechess fastchess lichess; do
    cat "${tcec[@]}" | python3 scripts/gui_forms.py "$form" > "$tmp/$form.pgn"
    pgns+=("$tmp/$form.pgn")
  done
fi
for pgn in "${pgns[@]}"; do
  train audit "$pgn" --format json
done
for rules in rulesets/*.rules; do
  train batch "${pgns[@]}" --rules "$rules" --out "$tmp/batch" --threads 1
done

"$profdata" merge -o "$dir/merged.profdata" "$dir/raw"
echo "bench/pgo.sh: building with the profile ($dir/use)" >&2
# a function changed since the profile was taken is built without it
RUSTFLAGS="-Cprofile-use=$dir/merged.profdata -Cllvm-args=-no-pgo-warn-mismatch" \
  cargo build --release --quiet --bin arbiter --target "$host" --target-dir "$dir/use"
echo "$dir/use/$host/release/arbiter"
