#!/usr/bin/env bash
# Instructions, not seconds: where one `arbiter audit` of a file spends its
# work, stage by stage, counted by valgrind's callgrind. The counts are the
# same from run to run, so they resolve a change of a percent on a machine
# whose speed drifts by a tenth or more (a virtual machine with neighbours)
# or that gives no hardware counters to `perf stat`. They miss what the
# counts cannot see: loads that miss the caches, branches mispredicted, and
# a `rep movsb` or `rep stosb` (glibc's memcpy and memset of large blocks),
# which callgrind counts once per byte. Time a change with bench/pairs.sh
# too; this says which stage moved.
#
# valgrind runs the portable SHA-256, not the processor's SHA extensions
# that arbiter uses where it has them, so the SHA-256 row is shown apart and
# left out of arbiter's own.
#
# Usage: bench/instructions.sh ARBITER_BINARY PGN [RULESET]
#   e.g. bench/instructions.sh target/release/arbiter \
#          ../shared/corpora/tcec-s15/tcec-s15-division-1.pgn rulesets/tcec-s15.rules
#        VALIDATE=path/to/validate bench/instructions.sh …   # and pgn-reader's
#          `validate` on the same file, for the ratio of instructions
#        KEEP=profile.cg bench/instructions.sh …   # keep callgrind's profile,
#          for `callgrind_annotate --inclusive=yes profile.cg` (any function;
#          run it outside the source tree, or it splits functions, below)
# Needs valgrind (Debian: apt-get install valgrind) and a build with its
# symbols (the release profile keeps them: debug = 1). A debug build
# inlines otherwise, and its rows do not add up.
set -euo pipefail
if [ "$#" -lt 2 ]; then
  sed -n '2,25p' "$0"
  exit 2
fi
bin=$1 pgn=$2 rules=${3:-}
command -v valgrind > /dev/null || {
  echo "bench/instructions.sh: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args=(audit "$pgn" --format json)
[ -n "$rules" ] && args+=(--rules "$rules")
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bin" "${args[@]}" \
  > "$tmp/out.json" 2> "$tmp/valgrind.log" || true
[ -s "$tmp/cg" ] || {
  echo "bench/instructions.sh: callgrind wrote no profile; its log:" >&2
  cat "$tmp/valgrind.log" >&2
  exit 2
}
# the plies replayed, as the game lines give them
plies=$(grep '"type":"game"' "$tmp/out.json" \
  | awk 'match($0, /"plies":[0-9]+/) { s += substr($0, RSTART + 8, RLENGTH - 8) } END { print s + 0 }')
games=$(grep -c '"type":"game"' "$tmp/out.json" || true)
[ "$plies" -gt 0 ] || {
  echo "bench/instructions.sh: no plies in the audit's output" >&2
  exit 2
}

[ -n "${KEEP:-}" ] && cp "$tmp/cg" "$KEEP"
# each function's count with its callees (callgrind_annotate --inclusive),
# taken from the line that names the function as it lies in the binary
# (from a directory of its own: run where the sources lie, it names some of a
# function's lines by a relative path and counts them apart)
(cd "$tmp" && callgrind_annotate --inclusive=yes --threshold=100 cg 2> /dev/null > inc)
count() {
  awk -v pat="$1" '
    $0 ~ pat && $0 ~ /\]$/ { gsub(",", "", $1); if ($1 + 0 > best) best = $1 + 0 }
    END { print best + 0 }' "$tmp/inc"
}
total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$tmp/inc")
sha=$(count 'sha2::sha256::compress256 \\[')
chunk=$(count 'GameSplitter<R>::next_chunk \\[')
hashread=$(count 'HashingReader<R> as std::io::Read>::read \\[')
# a build that inlines the hashing reader into the splitter names no such
# function: its cost is then SHA-256's (the rest of it is a few calls)
[ "$hashread" -gt 0 ] || hashread=$sha
# what the hashing reader reads while a file is opened (an input's first
# buffer, a small file whole; a ruleset) is not the splitter's: it is taken
# from the callers' tree and left in the rest
opened=$( (cd "$tmp" && callgrind_annotate --tree=caller --inclusive=yes --threshold=100 cg 2> /dev/null) | awk '
  /^ *[0-9,]+ .*< .*decode::open/ { c = $1; gsub(",", "", c); pend += c; next }
  /^ *[0-9,]+ .*< / { next }
  /\* .*HashingReader<R> as std::io::Read>::read \[/ { if (!found) got = pend; found = 1 }
  { pend = 0 }
  END { print got + 0 }')
# the SHA-256 of the rulesets, computed while they are compiled (each file
# of a folder or of an `extends` chain, shipped ones included): it is in
# the SHA-256 row already, so it is taken out of the compiling row
sha_compile=$( (cd "$tmp" && callgrind_annotate --tree=caller --inclusive=yes --threshold=100 cg 2> /dev/null) | awk '
  /^ *[0-9,]+ .*< / { if ($0 ~ /:arbiter::rules::/) { c = $1; gsub(",", "", c); pend += c }; next }
  /\* .*sha2::sha256::compress256 \[/ { if (!found) got = pend; found = 1 }
  { pend = 0 }
  END { print got + 0 }')
read=$(count ':arbiter::ingest::pgn::reader::read_game \\[')
typing=$(count 'parse_comment_from \\[')
replay=$(count ':arbiter::replay::play::replay \\[')
judge=$(count ':arbiter::rules::judge::judge \\[')
line=$(count 'GameLine as core::fmt::Display>::fmt \\[')
compile=$(count ':arbiter::rules::compile(_chain)? \\[')
compile=$((compile - sha_compile))
# the audit of a replayed game (the built-in checks, the case, the judge);
# a build from before the replay was taken out of it names the game's
# whole audit `audit_game`, the replay within it
audit=$(count ':arbiter::pipeline::game::audit_replayed \\[')
if [ "$audit" -eq 0 ]; then
  audit=$(count ':arbiter::pipeline::game::audit_game \\[')
  audit=$((audit > replay ? audit - replay : 0))
fi
# a stage whose function this build does not name would give a figure
# that means nothing (a negative one): say so and stop
for stage in read:"$read" replay:"$replay" audit:"$audit" line:"$line"; do
  [ "${stage#*:}" -gt 0 ] || {
    echo "bench/instructions.sh: this build names no function for the stage '${stage%%:*}' (renamed?): update the patterns" >&2
    exit 2
  }
done

own=$((total - sha))
# splitting, without the hashing done in it
split=$((chunk - (hashread - opened)))
checks=$((audit - judge))
rest=$((own - split - read - replay - audit - line - compile))

# every row a count of instructions: one below zero is a stage the
# patterns no longer name as they did (a function moved), and the figures
# mean nothing until they are mended
for r in split:"$split" read:"$read" typing:"$typing" replay:"$replay" checks:"$checks" judge:"$judge" line:"$line" compile:"$compile" rest:"$rest"; do
  [ "${r#*:}" -ge 0 ] || {
    echo "bench/instructions.sh: the row '${r%%:*}' is negative (${r#*:}): a function its patterns subtract has moved; update them" >&2
    exit 1
  }
done

row() {
  awk -v name="$1" -v n="$2" -v plies="$plies" -v own="$own" \
    'BEGIN { printf "%-44s %9.1f M %9.0f a ply %6.1f%%\n", name, n / 1e6, n / plies, 100 * n / own }'
}
echo "$games games, $plies plies; instructions (callgrind), with their callees"
row "arbiter's own (all but SHA-256)" "$own"
row "  split into games (the reading thread)" "$split"
row "  read games (pgn-reader, spans, comments)" "$read"
row "    of which typing the comments" "$typing"
row "  replay" "$replay"
row "  built-in checks and the game's case" "$checks"
row "  rules (the ruleset's judge)" "$judge"
row "  the game's JSON line" "$line"
row "  compiling the ruleset (once)" "$compile"
row "  the rest (start, arguments, output, drops)" "$rest"
awk -v n="$sha" -v plies="$plies" \
  'BEGIN { printf "%-44s %9.1f M %9.0f a ply (portable code; not in the above)\n", "SHA-256 under valgrind", n / 1e6, n / plies }'

if [ -n "${VALIDATE:-}" ]; then
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cgv" "$VALIDATE" "$pgn" \
    > /dev/null 2> "$tmp/valgrind-v.log" || true
  vtotal=$(cd "$tmp" && callgrind_annotate cgv 2> /dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
  awk -v v="$vtotal" -v own="$own" -v plies="$plies" 'BEGIN {
    printf "%-44s %9.1f M %9.0f a ply\n", "pgn-reader validate (all of it)", v / 1e6, v / plies
    printf "arbiter own / validate: %.2f times the instructions\n", own / v
  }'
fi
