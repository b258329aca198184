#include "diff.h"
template <typename T> static const T* lower_bound(const T* b, const T* e, const T& v) {
  int n = static_cast<int>(e - b);
  while (n > 0) { int h = n / 2; if (b[h] < v) { b += h + 1; n -= h + 1; } else n = h; }
  return b;
}
static int bsearch_idx(const unsigned* a, int n, unsigned key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) { int mid = lo + (hi - lo) / 2; if (a[mid] == key) return mid; if (a[mid] < key) lo = mid + 1; else hi = mid - 1; }
  return -1;
}
int main() {
  static unsigned a[500];
  for (int i = 0; i < 500; ++i) a[i] = static_cast<unsigned>(i) * 7u + 3u;
  unsigned found = 0, miss = 0; long pos = 0;
  for (unsigned k = 0; k < 3600; k += 11) {
    int i = bsearch_idx(a, 500, opaque(k));
    if (i >= 0) ++found; else ++miss;
    pos += lower_bound(a, a + 500, k) - a;
  }
  printf("found=%u miss=%u pos=%ld\n", found, miss, pos);
  return 0;
}
