#include "diff.h"
// Division and modulo by constants: Lanai has no mul-high, so these become library calls.
int main() {
  unsigned acc = 0;
  for (int i = -5000; i <= 5000; i += 37) {
    const int x = opaque(i) * 9973;
    const unsigned u = static_cast<unsigned>(x);
    printf("%d: %d %d %d %d %d | %u %u %u %u\n", x, x / 3, x % 7, x / 10, x / -1000, x % 65536, u / 3u, u % 10u, u / 1000000u, u >> 7);
    acc += static_cast<unsigned>(x / 3 + x % 7 + x / 10) ^ (u / 3u);
  }
  printf("acc=%u\n", acc);
  return 0;
}
