#!/bin/sh
# Fills scratch folder DIR with a copy of the shipped views (waves/*.gtkw, their filters and
# make_gtkw.py) and makes their VCDs by the documented commands (README.md, docs/nic.md,
# waves/fbs-figure1.sh), so the source tree is never written. Used by check_gtkw.sh (CI) and
# waves_screenshots.sh (docs/waves.md).
# usage: scripts/waves_scratch.sh SANVP_BINARY DIR
set -eu
SANVP=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$2
rm -rf "$T" && mkdir -p "$T/waves" "$T/scripts" "$T/views"
cp "$SRC"/waves/*.gtkw "$SRC/waves/fbs-figure1.sh" "$T/waves/"
cp -r "$SRC/waves/filters" "$T/waves/"
cp "$SRC/scripts/make_gtkw.py" "$T/scripts/"
cd "$T"
"$SANVP" run --vcd waves/default.vcd --trace-window 0:50us --report /dev/null > /dev/null
"$SANVP" msg --sizes 4,4K --iterations 1 --vcd waves/msg.vcd --trace-window 0:2ms --report /dev/null > /dev/null
sh waves/fbs-figure1.sh "$SANVP" > /dev/null
