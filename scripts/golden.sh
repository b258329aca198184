#!/bin/sh
# Behaviour-preservation check for refactors: runs the default scenario, every scenario in
# platform/scenarios and a small run of each other command with reports and waves, and records
# (record) or compares (check) the SHA-256 of every output. Wall-clock lines are left out.
#   scripts/golden.sh record DIR [SANVP]   writes DIR/sums.txt
#   scripts/golden.sh check DIR [SANVP]    exit 1 naming each output that differs
set -eu
mode=${1:?usage: golden.sh record|check DIR [SANVP]}
dir=${2:?usage: golden.sh record|check DIR [SANVP]}
here=$(cd "$(dirname "$0")/.." && pwd)
sanvp=${3:-$here/build/sanvp}
out=$(mktemp -d /tmp/sanvp-golden.XXXXXX)
trap 'rm -rf "$out"' EXIT
cd "$out"
run() {  # name, command...: stdout kept without the wall-clock lines
  name=$1; shift
  rc=0
  "$@" > "$name.out" 2> "$name.err" || rc=$?
  echo "exit $rc" >> "$name.out"
  grep -v -E "wall|per second|MIPS" "$name.out" > "$name.stdout" || true
  rm -f "$name.out"
}
run default "$sanvp" run --report default.json --vcd default.vcd
for f in "$here"/platform/scenarios/*.yaml; do
  b=$(basename "$f" .yaml)
  run "$b" "$sanvp" run "$f" --report "$b.json" --vcd "$b.vcd"
done
run msg "$sanvp" msg --sizes 4,4K,64K --iterations 2 --report msg.json --vcd msg.vcd
run clint "$sanvp" clint --arch B4,Q1 --cycles 1e6 --json clint.json --vcd clint.vcd
run btin "$sanvp" btin
run routes "$sanvp" routes "$here/platform/scenarios/irregular-hotspot.yaml"
# The protocol firmware on the fabric: small runs of each protocol command.
run fbs "$sanvp" fbs run --set fbs.rounds=3 --report fbs.json --vcd fbs.vcd
run tdma "$sanvp" tdma run "$here/platform/tdma/appendix-a.streams.yaml" tdma-a --cycles 5 --report tdma.json
run tdma-dynamic "$sanvp" tdma run "$here/platform/tdma/dynamic.streams.yaml" tdma-a --cycles 20 --report tdma-dynamic.json
run grim "$sanvp" grim --nodes 3 --set fault.drop=2e-5 --set fault.corrupt=2e-5 --report grim.json
sha256sum $(ls | grep -v '\.err$' | sort) > sums.txt
case "$mode" in
  record) mkdir -p "$dir"; cp sums.txt "$dir/sums.txt"; echo "golden: recorded $(wc -l < sums.txt) outputs in $dir" ;;
  check)
    if diff "$dir/sums.txt" sums.txt > diff.txt; then echo "golden: all $(wc -l < sums.txt) outputs identical"
    else echo "golden: outputs differ:"; grep '^[<>]' diff.txt | awk '{print $1, $3}' | sort -k2 -u; exit 1; fi ;;
  *) echo "golden: unknown mode $mode"; exit 2 ;;
esac
