#include "diff.h"
int main() {
  const int s0 = opaque(0), s31 = opaque(31), s1 = opaque(1), s36 = opaque(36), s40 = opaque(40);
  const int x = opaque(static_cast<int>(0x80000001u));
  const unsigned u = opaque(0x80000001u);
  printf("%d %u %u %u %d\n", x >> 31, u >> 31, 1u << s31, u << s0, x >> s0);
  printf("%u %u %d %d\n", u >> s31, u << s31, x >> s31, x >> s1);
  unsigned h = 0;
  for (int s = 0; s < 32; ++s) {
    const int v = opaque(-123456789), w = opaque(0x12345678);
    h = h * 31u + static_cast<unsigned>(v >> s) + (static_cast<unsigned>(w) << s) + (static_cast<unsigned>(v) >> s);
    printf("%d:%08x %08x %08x\n", s, static_cast<unsigned>(v >> s), static_cast<unsigned>(w) << s, static_cast<unsigned>(v) >> s);
  }
  printf("h=%u\n", h);
  const int64_t big = opaque(static_cast<int64_t>(0xFEDCBA9876543210ULL));
  const uint64_t ub = opaque(0xFEDCBA9876543210ULL);
  put_dec64("ashr36", big >> s36);
  put_hex64("lshr40", ub >> s40);
  put_dec64("m7", opaque(-7LL) >> s1);
  for (int s = 0; s < 64; s += 7) {
    put_hex64("l", ub << opaque(s));
    put_hex64("r", ub >> opaque(s));
    put_hex64("a", static_cast<uint64_t>(big >> opaque(s)));
  }
  return 0;
}
