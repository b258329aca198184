// Differential-suite prelude: the same program builds natively (host libc) and for Lanai
// (sanvp firmware runtime). Programs print deterministic text and return an exit code; the
// test compares both runs byte for byte.
#pragma once
#if defined(__lanai__)
#include "fw/fw.h"
#else
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#endif

// 64-bit values cannot go through varargs on Lanai (clang 14 ABI bug): print them in halves.
inline void put_hex64(const char* label, uint64_t v) {
  printf("%s=%08x%08x\n", label, static_cast<unsigned>(v >> 32), static_cast<unsigned>(v));
}

inline void put_dec64(const char* label, int64_t sv) {
  char buf[24];
  int n = 0;
  uint64_t v = sv < 0 ? 0u - static_cast<uint64_t>(sv) : static_cast<uint64_t>(sv);
  do {
    buf[n++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v);
  printf("%s=", label);
  if (sv < 0) putchar('-');
  while (n) putchar(buf[--n]);
  putchar('\n');
}

// Keeps the optimizer from folding test inputs into constants.
template <typename T>
inline T opaque(T v) {
  volatile T x = v;
  return x;
}
