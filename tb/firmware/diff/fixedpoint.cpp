#include "diff.h"
typedef int32_t q16;
static q16 qmul(q16 a, q16 b) { return static_cast<q16>((static_cast<int64_t>(a) * b) >> 16); }
static q16 qdiv(q16 a, q16 b) { return static_cast<q16>((static_cast<int64_t>(a) * 65536) / b); }
static q16 qsqrt(q16 x) { q16 r = x > 65536 ? x / 2 : 65536; for (int i = 0; i < 20; ++i) r = (r + qdiv(x, r)) / 2; return r; }
int main() {
  const q16 two = opaque(2 << 16), pi = 205887, e = 178145;
  printf("pi*e=%d pi/e=%d sqrt2=%d sqrt(pi)=%d\n", qmul(pi, e), qdiv(pi, e), qsqrt(two), qsqrt(pi));
  q16 acc = 0;
  for (int i = 1; i <= 50; ++i) acc += qdiv(65536, opaque(i) << 16);  // harmonic number
  printf("H50=%d neg=%d\n", acc, qmul(-pi, e));
  return 0;
}
