#include "diff.h"
// Branch-free selects and set-on-condition (sel, s<cc>, predicated ops).
static int imin(int a, int b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static int clamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
static int sgn(int v) { return (v > 0) - (v < 0); }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
int main() {
  const int vs[] = {-2147483647 - 1, -100, -1, 0, 1, 99, 2147483647};
  unsigned h = 0;
  for (int a : vs)
    for (int b : vs) {
      const int x = opaque(a), y = opaque(b);
      h = h * 31u + static_cast<unsigned>(imin(x, y)) + umax(static_cast<unsigned>(x), static_cast<unsigned>(y)) +
          static_cast<unsigned>(clamp(x, -50, 50) + sgn(y)) + (x == y) + (static_cast<unsigned>(x) >= static_cast<unsigned>(y)) * 2u;
    }
  printf("h=%u\n", h);
  put_dec64("min64", min64(opaque(-5LL), opaque(0x100000000LL)));
  put_dec64("min64b", min64(opaque(0x1FFFFFFFFLL), opaque(0x100000000LL)));
  int cnt = 0;
  for (int i = -10; i < 10; ++i) cnt += (opaque(i) & 1) ? i : -i;
  printf("cnt=%d\n", cnt);
  return 0;
}
