#include "diff.h"
static unsigned seed = 12345;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return seed >> 8; }
template <typename T>
static void quicksort(T* a, int lo, int hi) {
  while (lo < hi) {
    T p = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < p) ++i;
      while (p < a[j]) --j;
      if (i <= j) { T t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
    }
    if (j - lo < hi - i) { quicksort(a, lo, j); lo = i; }
    else { quicksort(a, i, hi); hi = j; }
  }
}
static void insertion(short* a, int n) {
  for (int i = 1; i < n; ++i) {
    short v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; --j; }
    a[j + 1] = v;
  }
}
int main() {
  static int a[600];
  static short b[200];
  for (int& x : a) x = static_cast<int>(rnd()) - 8000000;
  for (short& x : b) x = static_cast<short>(rnd());
  quicksort(a, 0, 599);
  insertion(b, 200);
  unsigned h = 0;
  int ok = 1;
  for (int i = 0; i < 600; ++i) { h = h * 31u + static_cast<unsigned>(a[i]); if (i && a[i - 1] > a[i]) ok = 0; }
  for (int i = 0; i < 200; ++i) { h = h * 31u + static_cast<unsigned>(b[i]); if (i && b[i - 1] > b[i]) ok = 0; }
  printf("sorted=%d h=%u min=%d max=%d med=%d bmin=%d bmax=%d\n", ok, h, a[0], a[599], a[300], b[0], b[199]);
  return 0;
}
