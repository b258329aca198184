// Known call counts for the trace and profile tests.
#include "fw/fw.h"
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int busy(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += leaf(i);
  return s;
}
int main() {
  printf("%d\n", busy(1000));
  return 0;
}
