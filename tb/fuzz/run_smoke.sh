#!/bin/sh
# Fuzz smoke run (a ctest test per target): replays the seed corpus and the crash regressions,
# then RUNS deterministic mutations (-seed=1). New inputs go to a throw-away folder, never into
# the source tree; a crash input is kept in ARTIFACTS.
# Usage: run_smoke.sh FUZZER RUNS ARTIFACTS CORPUS_DIR...
set -eu
exe=$1 runs=$2 artifacts=$3
shift 3
new=$(mktemp -d /tmp/sanvp-fuzz-smoke.XXXXXX)
trap 'rm -rf "$new"' EXIT
mkdir -p "$artifacts"
dirs=""
for d in "$@"; do [ -d "$d" ] && dirs="$dirs $d"; done
# shellcheck disable=SC2086
exec_rc=0
"$exe" -runs="$runs" -seed=1 -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$new" $dirs || exec_rc=$?
exit $exec_rc
