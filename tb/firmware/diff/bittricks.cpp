#include "diff.h"
static unsigned rotl(unsigned v, int s) { return (v << s) | (v >> ((32 - s) & 31)); }
int main() {
  const unsigned vals[] = {0u, 1u, 0x80000000u, 0xFFFFFFFFu, 0xF0F0u, 0x12345678u, 0x00010000u, 0xDEADBEEFu};
  for (unsigned v0 : vals) {
    const unsigned v = opaque(v0);
    printf("%08x pop=%d clz=%d ctz=%d bswap=%08x rotl5=%08x par=%d lowbit=%08x\n", v, __builtin_popcount(v),
           v ? __builtin_clz(v) : 32, v ? __builtin_ctz(v) : 32, __builtin_bswap32(v), rotl(v, opaque(5)),
           __builtin_parity(v), v & (0u - v));
  }
  const uint64_t w[] = {1ULL, 1ULL << 40, 0xFFFFFFFF00000000ULL, 0x00000000FFFFFFFFULL, 0x8000000000000000ULL};
  for (uint64_t x0 : w) {
    const uint64_t x = opaque(x0);
    printf("clzll=%d ctzll=%d popll=%d\n", __builtin_clzll(x), __builtin_ctzll(x), __builtin_popcountll(x));
    put_hex64("bswap64", __builtin_bswap64(x));
  }
  unsigned v = opaque(0x0F0F1234u);
  // next power of two, is-power-of-two, bit reverse
  unsigned p = v - 1;
  p |= p >> 1; p |= p >> 2; p |= p >> 4; p |= p >> 8; p |= p >> 16;
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  printf("np2=%08x pow2=%d rev=%08x\n", p + 1, (v & (v - 1)) == 0, r);
  return 0;
}
