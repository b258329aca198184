#include "diff.h"
int main() {
  const int a[] = {0, 1, -1, 7, -7, 13, 1000, -1000, 2147483647, -2147483647 - 1, 65536, 123456789};
  const int b[] = {1, -1, 2, 3, -3, 7, 10, 255, 65535, -65536, 1000000};
  unsigned sum = 0;
  for (int x : a)
    for (int y : b) {
      int vx = opaque(x), vy = opaque(y);
      if (vx == -2147483647 - 1 && vy == -1) continue;  // overflow: UB
      const int q = vx / vy, r = vx % vy;
      const unsigned m = static_cast<unsigned>(vx) * static_cast<unsigned>(vy);
      const unsigned uq = static_cast<unsigned>(vx) / static_cast<unsigned>(vy);
      const unsigned ur = static_cast<unsigned>(vx) % static_cast<unsigned>(vy);
      printf("%d %d: q=%d r=%d m=%u uq=%u ur=%u\n", vx, vy, q, r, m, uq, ur);
      sum = sum * 31u + static_cast<unsigned>(q) + ur;
    }
  printf("sum=%u\n", sum);
  printf("0xFFFFFFFE/7=%u %%7=%u -7/2=%d -7%%2=%d\n", opaque(0xFFFFFFFEu) / 7u, opaque(0xFFFFFFFEu) % 7u, opaque(-7) / 2, opaque(-7) % 2);
  return 0;
}
