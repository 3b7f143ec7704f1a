#!/bin/sh
# Regenerates the screenshots of the first screen that docs/dossier.md shows:
# reports/first-screen-dossier.png (the samples' dossier) and
# reports/first-screen-batch-s15.png (the TCEC S15 batch summary), each
# rendered at 1366x768 in headless Chromium by the test that checks that
# screen (tests/dossier.rs), then, when pngquant is installed, reduced to
# 64 colours.
#
# Usage: scripts/screenshots.sh CORPUS_DIR
# CORPUS_DIR is the folder holding tcec-s15/ (as ARBITER_CORPUS).
set -e
corpus=${1:-${ARBITER_CORPUS:-}}
if [ -z "$corpus" ]; then
  sed -n '2,10p' "$0"
  exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
ARBITER_CORPUS=$(realpath "$corpus") ARBITER_SCREENSHOTS="$here/reports" \
  cargo test --test cli -- --exact \
  dossier::the_samples_dossier_shows_the_verdict_on_the_first_screen \
  dossier::the_s15_batch_summary_shows_the_verdict_on_the_first_screen
for png in reports/first-screen-dossier.png reports/first-screen-batch-s15.png; do
  test -s "$png" || { echo "$png was not written" >&2; exit 1; }
  if command -v pngquant > /dev/null; then
    pngquant --force --skip-if-larger --strip --ext .png 64 "$png" || true
  fi
done
ls -l reports/first-screen-*.png
