#!/bin/sh
# Records the SHA-256 of every file arbiter writes for the runs that
# tests/identical.rs repeats, into tests/fixtures/identical/*.sha256.
#
# Usage: scripts/record_identical.sh ARBITER_BINARY [CORPUS_DIR SYZYGY_DIR]
#
# Run it only when an output is meant to change (a new finding, a new
# column), with the binary whose output is right, and say so in the commit:
# the test then holds every later build to those bytes. The runs happen in a
# scratch folder where `samples`, `rulesets`, `tcec-s15` and `syzygy` are
# links, so the paths a report records are the same on every machine.
# CORPUS_DIR is the folder holding tcec-s15/ (as ARBITER_CORPUS);
# without it only the samples' manifests are written.
set -e
bin=$(realpath "$1")
corpus=${2:-}
syzygy=${3:-}
if [ -z "$bin" ]; then
  sed -n '2,13p' "$0"
  exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/tests/fixtures/identical"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$here/samples" "$tmp/samples"
ln -s "$here/rulesets" "$tmp/rulesets"
[ -n "$corpus" ] && ln -s "$(realpath "$corpus")/tcec-s15" "$tmp/tcec-s15"
[ -n "$syzygy" ] && ln -s "$(realpath "$syzygy")" "$tmp/syzygy"

# name, then the arguments; the output folder is always `out/NAME`
record() {
  name=$1
  shift
  (cd "$tmp" && "$bin" "$@" --out "out/$name" > /dev/null 2>&1) || true
  (cd "$tmp/out/$name" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$out/$name.sha256"
  echo "$name: $(wc -l < "$out/$name.sha256") files"
}

record samples-audit audit samples
record samples-batch batch samples
if [ -n "$corpus" ]; then
  record s15-batch batch tcec-s15 --rules rulesets/tcec-s15.rules
  # S15 with every {…} comment removed (tests/identical.rs makes it the same way)
  mkdir "$tmp/tcec-s15-bare"
  for f in "$(realpath "$corpus")"/tcec-s15/*.pgn; do
    python3 -c "import re,sys; t=re.sub(rb'\{[^}]*\}',b'',open(sys.argv[1],'rb').read()); sys.stdout.buffer.write(re.sub(rb'[ \t]+\n',b'\n',t))" "$f" > "$tmp/tcec-s15-bare/$(basename "$f")"
  done
  record s15-bare-batch batch tcec-s15-bare --rules rulesets/tcec-s15.rules
  # S15 in the comment forms of other GUIs (tests/gui_forms.rs makes the same)
  for form in cutechess fastchess lichess; do
    mkdir "$tmp/tcec-s15-$form"
    for f in "$(realpath "$corpus")"/tcec-s15/*.pgn; do
      python3 "$here/scripts/gui_forms.py" "$form" < "$f" > "$tmp/tcec-s15-$form/$(basename "$f")"
    done
    record "s15-$form-batch" batch "tcec-s15-$form" --rules rulesets/tcec-s15.rules
  done
  if [ -n "$syzygy" ]; then
    record s15-audit audit tcec-s15 --rules rulesets/tcec-s15.rules --syzygy syzygy
  fi
fi
