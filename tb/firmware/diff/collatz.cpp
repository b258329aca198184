#include "diff.h"
int main() {
  int best = 0, best_n = 0; uint64_t peak = 0;
  for (int n = 1; n < opaque(3000); ++n) {
    uint64_t x = static_cast<uint64_t>(n); int steps = 0;
    while (x != 1) { x = (x & 1) ? 3 * x + 1 : x >> 1; if (x > peak) peak = x; ++steps; }
    if (steps > best) { best = steps; best_n = n; }
  }
  printf("best=%d at %d\n", best, best_n);
  put_dec64("peak", static_cast<int64_t>(peak));
  return 0;
}
