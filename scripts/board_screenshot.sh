#!/bin/sh
# Renders docs/images/board.png, the dossier's board as the README shows
# it: a game of the samples (TCEC S15, a clock gained by hand) with its
# last finding's board and the game's move stepper and move list, in
# headless Chromium at 1200x760, then, when pngquant is installed, reduced
# to 64 colours.
#
# Usage: scripts/board_screenshot.sh [ARBITER_BINARY]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/debug/arbiter}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
"$bin" audit samples/tcec-s15/manual-clock-addition --rules rulesets/tcec-s15.rules \
  --out "$tmp/d" > /dev/null || true
# the page in a frame, scrolled to the game's last finding
cat > "$tmp/shot.html" <<'HTML'
<!DOCTYPE html><html><head><style>html,body{margin:0}iframe{border:0;width:1200px;height:760px;display:block}</style></head><body>
<iframe src="d/dossier.html"></iframe>
<script>
document.querySelector('iframe').addEventListener('load', function () {
  var d = this.contentWindow.document, f = d.querySelectorAll('.finding');
  var last = f[f.length - 1];
  this.contentWindow.scrollTo(0, last.getBoundingClientRect().top + this.contentWindow.scrollY - 8);
});
</script></body></html>
HTML
mkdir -p docs/images
/usr/bin/chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
  --allow-file-access-from-files --window-size=1200,760 --virtual-time-budget=3000 \
  --screenshot="$here/docs/images/board.png" "file://$tmp/shot.html" 2> /dev/null
if command -v pngquant > /dev/null; then
  pngquant --force --skip-if-larger --strip --ext .png 64 docs/images/board.png || true
fi
ls -l docs/images/board.png
