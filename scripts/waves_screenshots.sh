#!/bin/sh
# Renders the screenshots of docs/waves.md: makes each view's VCD by the documented command in a
# scratch folder, opens the view in GTKWave headless (xvfb-run, Debian packages xvfb and xauth)
# and grabs the window, so the pictures always show what the current tool writes.
# usage: scripts/waves_screenshots.sh [SANVP_BINARY] [OUT_DIR (default docs/waves)]
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
SANVP=$(realpath "${1:-$SRC/build/sanvp}")
OUT=$(mkdir -p "${2:-$SRC/docs/waves}" && cd "${2:-$SRC/docs/waves}" && pwd)
T=$(mktemp -d /tmp/sanvp-shots.XXXXXX)
trap 'rm -rf "$T"' EXIT
sh "$SRC/scripts/waves_scratch.sh" "$SANVP" "$T"
cd "$T"

shot() {  # shot VIEW PNG: open waves/VIEW from the repository root (as the README says), grab
  tcl="$T/grab.tcl"
  printf 'gtkwave::/File/Grab_To_File %s\ngtkwave::/File/Quit\n' "$OUT/$2" > "$tcl"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" gtkwave -S "$tcl" "waves/$1" > "$T/gtkwave.log" 2>&1 \
     || [ ! -s "$OUT/$2" ]; then
    echo "waves_screenshots.sh: gtkwave could not render waves/$1:" >&2; cat "$T/gtkwave.log" >&2; exit 1
  fi
  echo "wrote $OUT/$2"
}
shot default.gtkw default.png
shot msg.gtkw msg.png
