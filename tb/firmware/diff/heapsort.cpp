#include "diff.h"
static void sift(int* a, int i, int n) {
  for (;;) {
    int m = i, l = 2 * i + 1, r = l + 1;
    if (l < n && a[l] > a[m]) m = l;
    if (r < n && a[r] > a[m]) m = r;
    if (m == i) return;
    int t = a[i]; a[i] = a[m]; a[m] = t; i = m;
  }
}
int main() {
  static int a[777];
  unsigned s = opaque(99u);
  for (int& x : a) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; x = static_cast<int>(s % 100000u) - 50000; }
  for (int i = 777 / 2 - 1; i >= 0; --i) sift(a, i, 777);
  for (int n = 776; n > 0; --n) { int t = a[0]; a[0] = a[n]; a[n] = t; sift(a, 0, n); }
  int ok = 1; unsigned h = 0;
  for (int i = 0; i < 777; ++i) { if (i && a[i - 1] > a[i]) ok = 0; h = h * 131u + static_cast<unsigned>(a[i]); }
  printf("ok=%d h=%u first=%d last=%d\n", ok, h, a[0], a[776]);
  return 0;
}
