#!/bin/sh
# Regenerates FBS Figure 1 in the waves (docs/fbs.md, "Figure 1 in the waves"): the VCD, the
# GTKWave save file and, with --png (needs xvfb-run: Debian packages xvfb, xauth), the screenshot
# docs/fbs/figure1.png. usage: waves/fbs-figure1.sh [SANVP_BINARY] [--png]
set -eu
SANVP=$(realpath "${1:-$(dirname "$0")/../build/sanvp}")  # before the cd: a path given from anywhere
cd "$(dirname "$0")"
"$SANVP" fbs run single ports=2 --set fbs.rounds=1 --set fbs.drift=0.001 --set fbs.interval=10 \
  --set fbs.initial_skew=0 --set n1.fbs.offset_ticks=-2000 --vcd fbs-figure1.vcd --report /dev/null > /dev/null
# Marker times: the edges tb/fbs/test_fbs_figure1.cpp checks (ps).
python3 ../scripts/make_gtkw.py fbs-figure1.vcd fbs-figure1.gtkw \
  --note "FBS Figure 1 (docs/fbs.md)" \
  --group "n0: slow NIC=n0.fbs.slot,n0.out.kind,n0.out.packet,n0.out.stop,n0.send.state,n0.sys.probe_tag,n0.sys.probe_value,n0.regs.rtc" \
  --group "n1: fast NIC=n1.fbs.slot,n1.out.kind,n1.out.packet,n1.out.stop,n1.send.state,n1.sys.probe_tag,n1.sys.probe_value,n1.regs.rtc" \
  --group "sw0.p1.in: B's buffer=sw0.p1.in.occupancy,sw0.p1.in.stop_sent" \
  --group "sw0.p0.out: link L to n0=sw0.p0.out.owner,sw0.p0.out.kind,sw0.p0.out.packet" \
  --marker "210500000=n1 slot 1, B" --marker "210848250=STOP" --marker "212494001=A's tail" \
  --marker "212756501=GO" --marker "224905000=n1 slot 2" --marker "225000000=n0 slot 2" \
  --window 209800000:225700000
if [ "${2:-}" = "--png" ]; then
  tcl=$(mktemp)
  printf 'gtkwave::/File/Grab_To_File %s\ngtkwave::/File/Quit\n' "$(cd ../docs/fbs && pwd)/figure1.png" > "$tcl"
  xvfb-run -a -s "-screen 0 1600x900x24" gtkwave -S "$tcl" fbs-figure1.gtkw > /dev/null 2>&1
  rm -f "$tcl"
  echo "wrote docs/fbs/figure1.png"
fi
