#include "diff.h"
#include <limits.h>
int main() {
  int r;
  int o = __builtin_add_overflow(opaque(INT_MAX), 1, &r);
  printf("add %d %d\n", o, r);
  o = __builtin_sub_overflow(opaque(INT_MIN), 1, &r);
  printf("sub %d %d\n", o, r);
  o = __builtin_mul_overflow(opaque(65536), 65536, &r);
  printf("mul %d %d\n", o, r);
  o = __builtin_mul_overflow(opaque(-46341), 46340, &r);
  printf("mul2 %d %d\n", o, r);
  unsigned u;
  o = __builtin_add_overflow(opaque(0xFFFFFFF0u), 0x20u, &u);
  printf("uadd %d %u\n", o, u);
  o = __builtin_sub_overflow(opaque(3u), 5u, &u);
  printf("usub %d %u\n", o, u);
  long long ll;
  o = __builtin_mul_overflow(opaque(3037000500LL), 3037000500LL, &ll);
  printf("mul64 %d\n", o);
  put_dec64("v", ll);
  o = __builtin_mul_overflow(opaque(-3037000499LL), 3037000499LL, &ll);
  printf("mul64b %d\n", o);
  put_dec64("v", ll);
  o = __builtin_add_overflow(opaque(LLONG_MAX), 1LL, &ll);
  printf("add64 %d\n", o);
  put_dec64("v", ll);
  unsigned long long ull;
  o = __builtin_mul_overflow(opaque(0x100000000ULL), 0x100000000ULL, &ull);
  printf("umul64 %d\n", o);
  put_hex64("v", ull);
  return 0;
}
