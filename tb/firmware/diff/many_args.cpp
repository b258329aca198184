#include "diff.h"
static int64_t mix(int a, int64_t b, int64_t c, int d, int64_t e) {
  return a + b + c * d + e;
}
static int eight(int a, int b, int c, int d, int e, int f, int g, int h) {
  return a - b + c * d - e + f * g - h;
}
static int64_t ten(int64_t a, int b, int64_t c, char d, short e, int64_t f, int g, unsigned char h, int64_t i, int j) {
  return a * 3 + b - c + d * 5 + e - f + g * 7 + h + i - j;
}
int main() {
  put_hex64("mix", static_cast<uint64_t>(mix(opaque(1), 0x100000008LL, 0x300000004LL, 9, 0xAAAA0000FFFFLL)));
  printf("eight=%d\n", eight(opaque(1), 2, 3, 4, 5, 6, 7, 8));
  put_dec64("ten", ten(opaque(1LL << 33), -2, 3, static_cast<char>(-4), static_cast<short>(-300), 6, 7, 200, -(1LL << 35), 10));
  return 0;
}
