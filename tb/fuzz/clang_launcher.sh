#!/bin/sh
# Compiler launcher of the fuzz targets in a g++ build (tb/fuzz/CMakeLists.txt): runs clang++ in
# place of the configured compiler, with libFuzzer coverage, ASan and UBSan and assertions on.
# Only the fuzz harnesses and the code under test are compiled this way; they link against the
# build's g++ libraries (same C++ ABI and libstdc++).
# Usage (CMake prepends it to the command): clang_launcher.sh compile|link CLANGXX CXX ARGS...
set -eu
mode=$1 clangxx=$2
shift 3
case $mode in
  compile) exec "$clangxx" "$@" -O1 -UNDEBUG -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined ;;
  link) exec "$clangxx" "$@" -fsanitize=fuzzer,address,undefined ;;
  *) echo "clang_launcher.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
