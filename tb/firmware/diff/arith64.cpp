#include "diff.h"
int main() {
  const int64_t a[] = {0, 1, -1, 123456789012345LL, -123456789012345LL, 0x7FFFFFFFFFFFFFFFLL, 4294967296LL, -98765, 1LL << 40};
  const int64_t b[] = {1, -1, 98765, -98765, 0x12345, 4294967295LL, -4294967296LL, 1000000007};
  uint64_t h = 0;
  for (int64_t x : a)
    for (int64_t y : b) {
      const int64_t vx = opaque(x), vy = opaque(y);
      const int64_t q = vx / vy, r = vx % vy;
      const uint64_t m = static_cast<uint64_t>(vx) * static_cast<uint64_t>(vy);
      const uint64_t uq = static_cast<uint64_t>(vx) / static_cast<uint64_t>(vy);
      const uint64_t ur = static_cast<uint64_t>(vx) % static_cast<uint64_t>(vy);
      put_dec64("q", q);
      put_dec64("r", r);
      put_hex64("m", m);
      put_hex64("uq", uq);
      put_hex64("ur", ur);
      h = h * 1099511628211ULL + static_cast<uint64_t>(q) + ur + (static_cast<uint64_t>(vx) + static_cast<uint64_t>(vy)) - (static_cast<uint64_t>(vy) - static_cast<uint64_t>(vx));
    }
  put_hex64("h", h);
  put_dec64("div", opaque(-123456789012345LL) / 98765);
  put_dec64("mod", opaque(-123456789012345LL) % 98765);
  put_hex64("udiv", opaque(0xFEDCBA9876543210ULL) / 0x12345);
  put_hex64("umod", opaque(0xFEDCBA9876543210ULL) % 0x12345);
  put_hex64("sq", static_cast<uint64_t>(opaque(0xFFFFFFFFu)) * opaque(0xFFFFFFFFu));
  return 0;
}
