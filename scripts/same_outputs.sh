#!/usr/bin/env bash
# Runs two builds of arbiter over the same commands and compares everything
# each wrote: standard output, standard error, the exit status and every
# file of its output folder, byte for byte. Use it to show that a change
# which must not change behaviour (a restructuring, a speed-up) did not.
#
# Usage: scripts/same_outputs.sh OLD_BINARY NEW_BINARY [CORPUS_DIR SYZYGY_DIR]
#   CORPUS_DIR holds tcec-s15/ and tcec-other/ (as ARBITER_CORPUS);
#   without it only the samples, rulesets and test fixtures are run.
#   KEEP=DIR keeps both runs' outputs in DIR/old and DIR/new.
#
# Every command runs in a scratch folder where `samples`, `rulesets`,
# `fixtures`, `tcec-s15`, `tcec-other` and `syzygy` are links, so the paths
# the reports record are the same for both builds. A command whose output
# holds a time taken (`rules fit`'s text) has that figure masked. Exits 0
# when every output is the same, 1 when any differs (each named), 2 on bad
# arguments.
set -uo pipefail
if [ "$#" -lt 2 ]; then
  sed -n '2,18p' "$0"
  exit 2
fi
old=$(realpath "$1") new=$(realpath "$2")
corpus=${3:-} syzygy=${4:-}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=${KEEP:-$(mktemp -d)}
[ -z "${KEEP:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old" "$tmp/new"
for side in old new; do
  d="$tmp/$side"
  ln -sfn "$here/samples" "$d/samples"
  ln -sfn "$here/rulesets" "$d/rulesets"
  ln -sfn "$here/tests/fixtures" "$d/fixtures"
  if [ -n "$corpus" ]; then
    ln -sfn "$(realpath "$corpus")/tcec-s15" "$d/tcec-s15"
    [ -d "$corpus/tcec-other" ] && ln -sfn "$(realpath "$corpus")/tcec-other" "$d/tcec-other"
  fi
  [ -n "$syzygy" ] && ln -sfn "$(realpath "$syzygy")" "$d/syzygy"
done

n=0 differ=0
# run NAME ARGS...: both builds, each in its own folder; @OUT@ in an
# argument becomes out/NAME
run() {
  local name=$1
  shift
  n=$((n + 1))
  for side in old new; do
    local bin=$old
    [ "$side" = new ] && bin=$new
    local d="$tmp/$side"
    mkdir -p "$d/res/$name" "$d/out"
    (cd "$d" && "$bin" "${@//@OUT@/out/$name}" > "res/$name/stdout" 2> "res/$name/stderr"
      echo $? > "res/$name/status")
    # the time a fit took is the only figure that may differ
    case $name in
      *fit-text*) sed -i -E 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/TIME/g' "$d/res/$name/stdout" ;;
    esac
    # a verify run names its scratch folder by process, and the report by
    # its whole path
    sed -i -E -e 's/arbiter-verify-[0-9]+/arbiter-verify-PID/g' -e "s#$d/##g" \
      "$d/res/$name/stdout" "$d/res/$name/stderr"
  done
  local same=1
  diff -r "$tmp/old/res/$name" "$tmp/new/res/$name" > /dev/null 2>&1 || same=0
  if [ -e "$tmp/old/out/$name" ] || [ -e "$tmp/new/out/$name" ]; then
    diff -r "$tmp/old/out/$name" "$tmp/new/out/$name" > /dev/null 2>&1 || same=0
  fi
  if [ "$same" = 0 ]; then
    echo "DIFFERS: $name: $*"
    differ=$((differ + 1))
  fi
}

# the samples, as the README's first command runs them, and as JSON
run samples-audit audit samples --out @OUT@
run samples-json audit samples --format json
run samples-batch batch samples --out @OUT@ --threads 2
run samples-verify verify out/samples-audit
for f in samples/*.pgn; do
  b=$(basename "$f" .pgn)
  r=rulesets/$b.rules
  [ -f "$here/$r" ] || r=rulesets/tcec-s15.rules
  run "sample-$b" audit "$f" --rules "$r" --format json
  run "sample-$b-html" audit "$f" --rules "$r" --out @OUT@ --charts @OUT@/charts
  run "sample-$b-replay" replay "$f" --rules "$r"
  run "sample-$b-replay-json" replay "$f" --json --rules "$r"
  run "sample-$b-chart" chart "$f" --rules "$r" --out @OUT@.svg
  run "sample-$b-hidden" hidden-book "$f"
  run "sample-$b-hidden-json" hidden-book "$f" --json
done
for r in "$here"/rulesets/*.rules; do
  b=$(basename "$r" .rules)
  run "rules-check-$b" rules check "rulesets/$b.rules"
  run "rules-list-$b" rules list "rulesets/$b.rules"
  for id in $(grep -oE '^rule [A-Za-z0-9_.-]+' "$r" | awk '{print $2}' | head -8); do
    run "rules-explain-$b-$id" rules explain "$id" --rules "rulesets/$b.rules"
  done
done
for code in illegal-move result-mismatch pgn-syntax no-such-code; do
  run "explain-$code" rules explain "$code"
done
# every fixture: PGNs audited with each ruleset, rule files checked, logs
for r in "$here"/rulesets/*.rules; do
  b=$(basename "$r" .rules)
  run "fixtures-$b" batch fixtures --rules "rulesets/$b.rules" --out @OUT@ --threads 2
done
while IFS= read -r f; do
  rel=${f#"$here/tests/"}
  run "fixture-rules-$(echo "$rel" | tr '/' '_')" rules check "$rel"
done < <(find "$here/tests/fixtures" -name '*.rules' | LC_ALL=C sort)
while IFS= read -r f; do
  rel=${f#"$here/tests/"}
  run "fixture-pgn-$(echo "$rel" | tr '/' '_')" audit "$rel" --format json
done < <(find "$here/tests/fixtures" -name '*.pgn' | LC_ALL=C sort | head -400)
while IFS= read -r f; do
  rel=${f#"$here/tests/"}
  run "fixture-log-$(echo "$rel" | tr '/' '_')" audit samples/tcec-style.pgn --engine-log "$rel" --operator-log "$rel" --rules rulesets/tcec-s15.rules --format json
done < <(find "$here/tests/fixtures" -name '*.log' | LC_ALL=C sort | head -200)
run passive-samples similarity --games samples --out @OUT@
run help --help
run version --version
for c in audit replay rules record similarity verify batch hidden-book chart "rules check" "rules list" "rules explain" "rules fit"; do
  # shellcheck disable=SC2086
  run "help-${c// /-}" $c --help
done
run missing-file audit no-such-file.pgn
run bad-flag audit --no-such-flag samples

if [ -n "$corpus" ]; then
  run s15-json audit tcec-s15 --rules rulesets/tcec-s15.rules --format json
  run s15-bare audit tcec-s15 --format json
  run s15-batch batch tcec-s15 --rules rulesets/tcec-s15.rules --out @OUT@
  run s15-verify verify out/s15-batch
  run s15-batch-fit batch tcec-s15 --rules rulesets/tcec-s15.rules --fit --out @OUT@
  run s15-audit-fit audit tcec-s15 --rules rulesets/tcec-s15.rules --fit --format json
  run s15-fit-json rules fit tcec-s15 --rules rulesets/tcec-s15.rules --format json
  run s15-fit-text rules fit tcec-s15 --rules rulesets/tcec-s15.rules
  run s15-fit-event rules fit tcec-s15 --rules rulesets/tcec-s15.rules --per event --format json
  run s15-hidden hidden-book tcec-s15 --json
  run s15-passive similarity --games tcec-s15 --out @OUT@
  if [ -n "$syzygy" ]; then
    run s15-audit-syzygy audit tcec-s15 --rules rulesets/tcec-s15.rules --syzygy syzygy --out @OUT@
    run s15-fit-syzygy rules fit tcec-s15 --rules rulesets/tcec-s15.rules --syzygy syzygy --format json
  fi
  if [ -d "$corpus/tcec-other" ]; then
    run other-batch batch tcec-other --rules rulesets/tcec-s15.rules --out @OUT@
    run other-batch-fit batch tcec-other --rules rulesets/tcec-s15.rules --fit --out @OUT@
    run other-fit rules fit tcec-other --rules rulesets/tcec-s15.rules --format json
  fi
fi

echo "$n commands, $differ differ"
[ "$differ" = 0 ]
