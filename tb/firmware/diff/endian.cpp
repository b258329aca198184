#include "diff.h"
// Byte order: Lanai is big-endian, the host little-endian. Each check compares against the
// value computed by hand for the build's byte order and prints ok/BAD.
#if defined(__BIG_ENDIAN__) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
static const bool kBig = true;
#else
static const bool kBig = false;
#endif
static void check(const char* what, unsigned got, unsigned be, unsigned le) {
  printf("%s %s\n", what, got == (kBig ? be : le) ? "ok" : "BAD");
}
int main() {
  union { uint32_t w; uint8_t b[4]; uint16_t h[2]; } u;
  u.w = opaque(0x11223344u);
  check("byte0", u.b[0], 0x11, 0x44);
  check("byte3", u.b[3], 0x44, 0x11);
  check("half1", u.h[1], 0x3344, 0x1122);
  uint8_t raw[4] = {0xDE, 0xAD, 0xBE, 0xEF};
  uint32_t w;
  memcpy(&w, raw, 4);
  check("word", w, 0xDEADBEEFu, 0xEFBEADDEu);
  uint64_t q = opaque(0x0102030405060708ULL);
  uint32_t parts[2];
  memcpy(parts, &q, 8);
  check("hi-first", parts[0], 0x01020304u, 0x05060708u);
  // order-independent: byte extraction by shifts
  printf("shift-bytes %02x %02x %02x %02x\n", (u.w >> 24) & 0xFF, (u.w >> 16) & 0xFF, (u.w >> 8) & 0xFF, u.w & 0xFF);
  return 0;
}
