#include "diff.h"
static uint64_t gcd(uint64_t a, uint64_t b) { while (b) { uint64_t t = a % b; a = b; b = t; } return a; }
static unsigned bgcd(unsigned a, unsigned b) {
  if (!a) return b;
  if (!b) return a;
  int s = __builtin_ctz(a | b); a >>= __builtin_ctz(a);
  do { b >>= __builtin_ctz(b); if (a > b) { unsigned t = a; a = b; b = t; } b -= a; } while (b);
  return a << s;
}
static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m) {
  uint64_t r = 1; b %= m;
  while (e) { if (e & 1) r = r * b % m; b = b * b % m; e >>= 1; }
  return r;
}
int main() {
  put_hex64("g1", gcd(opaque(1071ULL * 1000003ULL), 462ULL * 1000003ULL));
  put_hex64("g2", gcd(opaque(0xFFFFFFFFFFFFFFFFULL), 0xFFFFFFFFULL));
  printf("bgcd=%u %u %u\n", bgcd(opaque(48u), 180u), bgcd(opaque(17u), 5u), bgcd(opaque(1u << 20), 3u << 18));
  put_dec64("lcm", static_cast<int64_t>(opaque(123456ULL) / gcd(123456ULL, 7890ULL) * 7890ULL));
  put_dec64("pow", static_cast<int64_t>(powmod(opaque(3ULL), 1000000ULL, 1000000007ULL)));
  put_dec64("pow2", static_cast<int64_t>(powmod(opaque(2ULL), 62ULL, 4294967291ULL)));
  return 0;
}
