#include "diff.h"
int main() {
  signed char c = static_cast<signed char>(opaque(120));
  int s = 0;
  for (int i = 0; i < 20; ++i) { c = static_cast<signed char>(c + 3); s += c; }
  printf("c=%d s=%d\n", c, s);
  signed char a = static_cast<signed char>(opaque(-128));
  unsigned char b = static_cast<unsigned char>(opaque(255));
  printf("%d %d %d %d %d\n", a / 2, a >> 1, b >> 1, a * b, static_cast<signed char>(b) + 1);
  short h = static_cast<short>(opaque(-32768));
  unsigned short uh = static_cast<unsigned short>(opaque(65535));
  printf("%d %d %d %d\n", h / 3, h % 3, uh / 7, static_cast<short>(uh + 2));
  const char* str = "\x80\xff\x7f\x01";
  int t = 0;
  for (const char* p = str; *p; ++p) t = t * 7 + *p;
  printf("t=%d\n", t);
  return 0;
}
