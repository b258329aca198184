#!/bin/sh
# A fuzzing campaign of one target (README "Fuzzing"): copies the seed corpus and the crash
# regressions to a work folder and runs the fuzzer for SECONDS (one job, one worker). The log
# (final line: runs, cov, ft, corpus, exec/s) and any crash input stay in the work folder.
# Usage: tb/fuzz/campaign.sh TARGET SECONDS [BUILD_DIR]   (build: cmake --preset fuzz && cmake --build --preset fuzz)
set -eu
t=$1 secs=$2 build=${3:-build-fuzz}
src=$(cd "$(dirname "$0")" && pwd)
exe=$(cd "$build" && pwd)/tb/fuzz/fuzz_$t
work=$(cd "$build" && pwd)/fuzz-work/$t
mkdir -p "$work/corpus"
cp -n "$src/corpus/$t"/* "$work/corpus/" 2>/dev/null || true
cp -n "$src/regressions/$t"/* "$work/corpus/" 2>/dev/null || true
cd "$work"
rc=0
"$exe" -max_total_time="$secs" -jobs=1 -workers=1 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" corpus > driver.log 2>&1 || rc=$?
grep -aE "DONE|^stat::|ERROR|SUMMARY|Test unit" fuzz-0.log | tail -12
echo "corpus files: $(ls corpus | wc -l); crash/timeout/oom inputs: $(ls | grep -cE '^(crash|timeout|oom|leak)-' || true)"
exit $rc
