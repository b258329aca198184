// Compute-bound benchmark firmware: repeated LCG fill, quicksort and table-driven CRC-32 over
// 4096 words; about 1.3 M instructions per round (130 M at the default 100 rounds). Prints a
// checksum so the work cannot be optimized away. `sanvp bench` builds it with BENCH_ROUNDS set
// (platform/bench/CMakeLists.txt).
#include "fw/fw.h"

#ifndef BENCH_ROUNDS
#define BENCH_ROUNDS 100
#endif

namespace {
constexpr int kN = 4096;
constexpr int kRounds = BENCH_ROUNDS;
uint32_t data[kN];
uint32_t table[256];

void quicksort(uint32_t* a, int lo, int hi) {
  while (lo < hi) {
    const uint32_t p = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < p) ++i;
      while (p < a[j]) --j;
      if (i <= j) {
        const uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        ++i;
        --j;
      }
    }
    if (j - lo < hi - i) {
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
}

uint32_t crc32(const unsigned char* p, int n) {
  uint32_t c = 0xFFFFFFFFu;
  while (n--) c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
  return ~c;
}
}  // namespace

int main() {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  uint32_t seed = 1, sum = 0;
  for (int r = 0; r < kRounds; ++r) {
    for (int i = 0; i < kN; ++i) {
      seed = seed * 1664525u + 1013904223u;
      data[i] = seed;
    }
    quicksort(data, 0, kN - 1);
    sum ^= crc32(reinterpret_cast<const unsigned char*>(data), kN * 4) + static_cast<uint32_t>(r);
  }
  printf("checksum %08x\n", static_cast<unsigned>(sum));
  return 0;
}
