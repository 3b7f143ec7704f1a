#!/bin/sh
# Throughput, side by side on the same large file in one run: the full audit
# (arbiter batch with tcec-s15.rules: its variants, switches and every
# finding) on 2 threads and on 1, the audit without a ruleset (parse, type
# every comment, replay, built-in checks) on 1 thread, as `batch` (with its
# tables and summary) and as `audit` (JSON lines alone), pgn-reader's own
# `validate` example, pgn-extract validating and python-chess replaying.
# It ends with the ratios the targets are stated in (issue 15): the full
# audit against `validate` (target: at least 0.5 on 2 threads) and the
# audit without a ruleset on one thread (target: 300 MB/s).
#
# Usage: bench/throughput.sh ARBITER_BINARY TCEC_S15_DIR [COPIES]
#        REPEAT=3 bench/throughput.sh …   # runs of each command (default 5)
#        FORM=fastchess bench/throughput.sh …
#        PEERS=0 bench/throughput.sh …    # without pgn-extract and python-chess
#        PGO=path/to/arbiter bench/throughput.sh …   # and a second build of
#          arbiter (bench/pgo.sh's) on each of arbiter's commands, each
#          right after the first build's, with its own ratios
#
# FORM (cutechess, fastchess or lichess) times the same games with their
# comments rewritten into that GUI's form by scripts/gui_forms.py (the
# rewrite tests/identical.rs and the allocations bench use): fewer bytes
# and other parsers, the same plies and the same ruleset.
#
# The runs go in rounds: each round runs every command once, in the order
# printed, so that every command is timed in the same stretches of the
# machine's time as the others (a shared virtual machine's speed drifts by
# a third within minutes, and a command timed in a block of its own runs
# after the drift and not with it). Each figure is the median wall time of
# the REPEAT rounds, with the largest peak RSS of them; each ratio to
# `validate` is the median of the rounds' own ratios (each round's
# arbiter against the same round's `validate`), with the smallest and
# largest of them.
#
# The file is the S15 archive concatenated COPIES times (default 8, about
# 100 MB). pgn-reader's example is compiled from the crate's own source in
# the cargo registry, in a temporary project (nothing of it enters this
# repository). Needs: pgn-extract (apt-get install pgn-extract), python3 with
# chess, and GNU time (/usr/bin/time). Prints games/s, MB/s and the peak
# resident memory of each.
set -e
if [ "$#" -lt 2 ]; then
  sed -n '2,40p' "$0"
  exit 2
fi
bin=$(realpath "$1")
corpus=$2
copies=${3:-8}
repeat=${REPEAT:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run arbiter from a fresh copy, its pages in memory as `validate`'s are
# (built below): this machine gives back pages left untouched for some
# seconds, and a binary built earlier faults its code in again
cp "$bin" "$tmp/arbiter"
bin="$tmp/arbiter"
pgo=""
if [ -n "${PGO:-}" ]; then
  cp "$PGO" "$tmp/arbiter-pgo"
  pgo="$tmp/arbiter-pgo"
fi
big="$tmp/big.pgn"
i=0
while [ "$i" -lt "$copies" ]; do
  cat "$corpus"/*.pgn >> "$big"
  i=$((i + 1))
done
if [ -n "${FORM:-}" ]; then
  python3 "$here/scripts/gui_forms.py" "$FORM" < "$big" > "$tmp/form.pgn"
  mv "$tmp/form.pgn" "$big"
fi
bytes=$(stat -c %s "$big")
games=$(grep -c '^\[Event ' "$big")

# pgn-reader's validate example, built from the registry's copy of the crate
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/pgn-reader-0.29.* 2>/dev/null | head -1)
validate=""
if [ -n "$src" ]; then
  mkdir -p "$tmp/validate/src"
  cp "$src/examples/validate.rs" "$tmp/validate/src/main.rs"
  cat > "$tmp/validate/Cargo.toml" <<TOML
[package]
name = "validate"
version = "0.0.0"
edition = "2024"
[dependencies]
pgn-reader = "=$(basename "$src" | sed 's/pgn-reader-//')"
shakmaty = "0.30"
zstd = "0.13"
TOML
  (cd "$tmp/validate" && CARGO_TARGET_DIR="$tmp/validate/target" cargo build --release -q) \
    && validate="$tmp/validate/target/release/validate"
fi

cat > "$tmp/replay.py" <<'PY'
import sys, chess.pgn
n = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as fh:
    while True:
        g = chess.pgn.read_game(fh)
        if g is None:
            break
        b = g.board()
        for m in g.mainline_moves():
            b.push(m)
        n += 1
print(n, "games")
PY

# add NAME VAR COMMAND…: a command to time, each round, in this order; its
# rounds' times go to $tmp/t.VAR, a line each ("seconds kilobytes")
cmds=""
add() {
  name=$1 var=$2
  shift 2
  q=""
  for a in "$@"; do
    q="$q '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
  done
  eval "name_$var=\$name cmd_$var=\$q"
  cmds="$cmds $var"
}
# both NAME VAR ARGS…: arbiter's command with the first build, then with the
# second where there is one (VAR_pgo)
both() {
  name=$1 var=$2
  shift 2
  add "$name" "$var" "$bin" "$@"
  if [ -n "$pgo" ]; then
    add "  the same, PGO build" "${var}_pgo" "$pgo" "$@"
  fi
}

[ -n "$validate" ] && add "pgn-reader examples/validate" valid "$validate" "$big"
both "arbiter batch (tcec-s15.rules), 2 threads" full2 batch "$big" --rules "$here/rulesets/tcec-s15.rules" --out "$tmp/batch" --threads 2
both "arbiter batch (tcec-s15.rules), 1 thread" full1 batch "$big" --rules "$here/rulesets/tcec-s15.rules" --out "$tmp/batch1" --threads 1
both "arbiter batch, no ruleset, 1 thread" bare1 batch "$big" --out "$tmp/batch0" --threads 1
# the same audit, each game's JSON line written as it is done, without the
# batch's tables, summary and event-level stage (one worker, as above)
both "arbiter audit, no ruleset (JSON lines)" audit0 audit "$big" --format json
peers=${PEERS:-1}
pgnx=$(command -v pgn-extract || true)
[ -z "$pgnx" ] && [ -x /usr/games/pgn-extract ] && pgnx=/usr/games/pgn-extract
if [ "$peers" = 0 ]; then
  :
elif [ -n "$pgnx" ]; then
  add "pgn-extract (validate, no output)" pgnx "$pgnx" -s -r "$big"
else
  echo "pgn-extract: not installed (apt-get install pgn-extract)"
fi
if [ "$peers" = 0 ]; then
  :
elif python3 -c 'import chess' 2> /dev/null; then
  add "python-chess (replay)" pychess python3 "$tmp/replay.py" "$big"
else
  echo "python-chess: not installed (pip install chess)"
fi

echo "file: $copies copies of $corpus${FORM:+, comments in the $FORM form}, $games games, $(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}') MB; $repeat rounds, each running every command once"
r=0
while [ "$r" -lt "$repeat" ]; do
  for var in $cmds; do
    eval "c=\$cmd_$var"
    # wall time in nanoseconds (GNU time's %e has two decimals, too coarse
    # for validate's tenth of a second); GNU time for the peak RSS
    t0=$(date +%s%N)
    eval "/usr/bin/time -f %M -o \"\$tmp/time\" $c" > "$tmp/out" 2> "$tmp/err" || true
    t1=$(date +%s%N)
    # GNU time puts "Command exited with non-zero status N" first when the
    # program exits non-zero (arbiter batch exits 1 when it finds violations)
    echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') $(tail -n 1 "$tmp/time")" >> "$tmp/t.$var"
  done
  r=$((r + 1))
done
# each command's median and largest peak RSS, in the order run
for var in $cmds; do
  eval "name=\$name_$var"
  set -- $(sort -n "$tmp/t.$var" | awk '{ s[NR] = $1; if ($2 > kb) kb = $2 }
    END { print s[int((NR + 1) / 2)], kb }')
  eval "$var=\$1"
  awk -v n="$name" -v s="$1" -v kb="$2" -v b="$bytes" -v g="$games" 'BEGIN {
    printf "%-44s %8.3f s %10.0f games/s %8.1f MB/s %8.1f MiB peak RSS\n", n, s, g / s, b / 1e6 / s, kb / 1024 }'
done
[ -z "$validate" ] && echo "pgn-reader validate: not built (no pgn-reader 0.29 source in the cargo registry)"
valid=${valid:-}

# VAR: the median of the rounds' ratios of validate's time to VAR's, with
# the smallest and largest ("median (min to max)")
per_round() {
  paste -d ' ' "$tmp/t.valid" "$tmp/t.$1" | awk '{ print $1 / $3 }' | sort -g | awk '
    { x[NR] = $1 } END { printf "%.4f (rounds %.4f to %.4f; 1/%.0f)", x[int((NR + 1) / 2)], x[1], x[NR], 1 / x[int((NR + 1) / 2)] }'
}

# label SUFFIX: the ratios the targets are stated in, for the build whose
# variables end in SUFFIX ("" or "_pgo")
ratios() {
  if [ -n "$valid" ]; then
    echo "$1full audit / validate, 2 threads: $(per_round "full2$2"); target 0.5"
    echo "$1full audit / validate, 1 thread:  $(per_round "full1$2")"
  fi
  eval "s=\$bare1$2 a=\$audit0$2"
  awk -v l="$1" -v s="$s" -v a="$a" -v b="$bytes" 'BEGIN {
    printf "%swithout a ruleset, 1 thread: %.1f MB/s batch, %.1f MB/s audit (medians; target 300 MB/s)\n", l, b / 1e6 / s, b / 1e6 / a }'
}
echo
ratios "" ""
if [ -n "$pgo" ]; then
  ratios "PGO build: " "_pgo"
fi
