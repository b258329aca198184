#!/bin/sh
# Opens every GTKWave save file the project ships (waves/*.gtkw) and one that scripts/make_gtkw.py
# generates, headless (xvfb-run), from the repository root and from the save file's own folder, as
# the README and docs tell users to. Fails on a shipped view that differs from the one
# make_gtkw.py makes of the current VCD (stale markers, window or widths), on any load error and
# when GTKWave shows fewer signals than the save file lists (a signal the VCD no longer has), and
# when a translate filter lacks a name for a value its signal takes. The VCDs are made by the
# documented commands in a scratch copy, so the source tree is never written.
# usage: scripts/check_gtkw.sh SANVP_BINARY [SCRATCH_DIR]
set -eu
SANVP=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=${2:-$(mktemp -d /tmp/sanvp-gtkw.XXXXXX)}
# The views and their VCDs, by the documented commands, in the scratch folder.
sh "$SRC/scripts/waves_scratch.sh" "$SANVP" "$T"
cd "$T"
# A generated view whose VCD lies in another folder.
/usr/bin/python3 scripts/make_gtkw.py waves/default.vcd views/generated.gtkw > /dev/null
# A firmware view with pc as symbol+offset: its process filter runs this sanvp (fw symbolize).
/usr/bin/python3 scripts/make_gtkw.py waves/msg.vcd views/symbols.gtkw --symbols builtin:msg --sanvp "$SANVP" > /dev/null

# The shipped views are what make_gtkw.py makes of the documented runs' VCDs today: a view made
# from an older simulation opens with its markers (e.g. "first head") and window in the wrong
# place, silently. fbs-figure1.sh has just remade its view in the scratch copy.
stale=0
fresh() {  # fresh VIEW NEW: compare the shipped waves/VIEW with NEW (its [savefile] line aside)
  if ! diff -u -I '^\[savefile\]' "$SRC/waves/$1" "$2" > "$T/stale.diff"; then
    echo "FAIL: waves/$1 is stale: it differs from what scripts/make_gtkw.py makes of the current tool's VCD"
    echo "  (regenerate the views, docs/waves.md 'Adding a signal', step 4); shipped (-) and now (+):"
    grep -E '^[-+]' "$T/stale.diff" | grep -v -E '^(--- |\+\+\+ |.\[savefile\])' | head -10 | cut -c1-160; stale=1
  fi
}
for v in default msg; do
  /usr/bin/python3 scripts/make_gtkw.py "waves/$v.vcd" "waves/$v.gtkw.now" > /dev/null
  fresh "$v.gtkw" "waves/$v.gtkw.now"
  rm -f "waves/$v.gtkw.now"
done
fresh fbs-figure1.gtkw waves/fbs-figure1.gtkw

tcl="$T/quit.tcl"
printf 'puts "sanvp-displayed [llength [gtkwave::getDisplayedSignals]]"\ngtkwave::/File/Quit\n' > "$tcl"
fail=$stale
check() {  # check DIR GTKW: open GTKW from DIR; compare the shown signals with the save file's
  listed=$(grep -c -E '^(\+\{[^}]*\} )?[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+:[0-9]+\])?$' "$1/$2" || true)
  out=$(cd "$1" && timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" gtkwave -S "$tcl" "$2" 2>&1) && rc=0 || rc=$?
  shown=$(printf '%s\n' "$out" | sed -n 's/^sanvp-displayed \([0-9]*\)$/\1/p')
  if [ "$rc" -ne 0 ] || printf '%s\n' "$out" | grep -q -i -E 'could not|error'; then
    echo "FAIL: gtkwave $2 from $1 (exit $rc):"; printf '%s\n' "$out" | grep -i -E 'could not|error' | head -5; fail=1
  elif [ "${shown:-0}" -lt "$listed" ]; then
    echo "FAIL: gtkwave $2 from $1 shows ${shown:-0} of the $listed signals it lists"; fail=1
  else
    echo "ok: gtkwave $2 from $1 ($shown signals)"
  fi
}
for f in waves/*.gtkw views/*.gtkw; do
  check "$T" "$f"
  check "$T/$(dirname "$f")" "$(basename "$f")"
  check / "$T/$f"
done
# Every value a filtered signal takes has a name in its translate filter.
/usr/bin/python3 "$SRC/scripts/check_gtkw_filters.py" waves/*.gtkw views/*.gtkw || fail=1
# No two rows of a group look alike (aliases name the direction and the engine).
/usr/bin/python3 "$SRC/scripts/check_gtkw_rows.py" waves/*.gtkw views/*.gtkw || fail=1
[ "$fail" -eq 0 ] && rm -rf "$T"
exit "$fail"
