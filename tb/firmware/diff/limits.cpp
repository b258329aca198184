#include "diff.h"
#include <limits.h>
// Signed/unsigned limits and compares (V and C flags at the edges).
int main() {
  const int imin = opaque(INT_MIN), imax = opaque(INT_MAX), one = opaque(1), m1 = opaque(-1);
  const unsigned umax = opaque(UINT_MAX), uhigh = opaque(0x80000000u);
  printf("%d %d %d %d\n", imin < one, imax < imin, m1 < 0, imin <= opaque(INT_MIN));
  printf("%d %d %d\n", uhigh > 1u, static_cast<unsigned>(m1) < opaque(0u), static_cast<unsigned>(imin) - 1u > static_cast<unsigned>(imax));
  printf("%d %d %d %d\n", imax > m1, imin < m1, umax > uhigh, umax >= opaque(UINT_MAX));
  const int vals[] = {INT_MIN, INT_MIN + 1, -2, -1, 0, 1, 2, INT_MAX - 1, INT_MAX};
  unsigned bits = 0, n = 0;
  for (int x : vals)
    for (int y : vals) {
      const int vx = opaque(x), vy = opaque(y);
      const unsigned ux = static_cast<unsigned>(vx), uy = static_cast<unsigned>(vy);
      const unsigned r = (vx < vy) | (vx <= vy) << 1 | (vx > vy) << 2 | (vx >= vy) << 3 | (vx == vy) << 4 | (ux < uy) << 5 |
                         (ux <= uy) << 6 | (ux > uy) << 7 | (ux >= uy) << 8 | (vx != vy) << 9;
      bits = bits * 33u + r;
      ++n;
      printf("%x", r & 0xF);
    }
  printf("\nbits=%u n=%u\n", bits, n);
  printf("wrap=%u %u\n", umax + opaque(1u), 0u - opaque(1u));
  printf("neg=%d abs=%d\n", -imax, imax < 0 ? -imax : imax);
  long long ll = opaque(LLONG_MIN);
  printf("llmin<0=%d llmax>0=%d\n", ll < 0, opaque(LLONG_MAX) > 0);
  printf("cmp64=%d %d %d\n", opaque(-1LL) < opaque(1LL), opaque(0xFFFFFFFFULL) < opaque(0x100000000ULL), opaque(-5LL) > opaque(-6LL));
  return 0;
}
