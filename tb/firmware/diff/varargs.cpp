#include "diff.h"
#include <stdarg.h>
static int vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; ++i) s = s * 3 + va_arg(ap, int);
  va_end(ap);
  return s;
}
static unsigned vmix(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  unsigned h = 0;
  for (const char* p = fmt; *p; ++p) {
    if (*p == 'i') h = h * 31u + static_cast<unsigned>(va_arg(ap, int));
    else if (*p == 's') for (const char* s = va_arg(ap, const char*); *s; ++s) h = h * 31u + static_cast<unsigned char>(*s);
    else if (*p == 'c') h = h * 31u + static_cast<unsigned>(va_arg(ap, int) & 0xFF);
  }
  va_end(ap);
  return h;
}
static int forward(const char* fmt, ...) {
  char buf[64];
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  printf("[%s] %d\n", buf, n);
  return n;
}
int main() {
  printf("vsum=%d\n", vsum(5, 1, 2, 3, 4, 5));
  printf("vsum0=%d vsum1=%d\n", vsum(0), vsum(1, opaque(-9)));
  printf("vmix=%u\n", vmix("isci", 7, "hello", 'x', -3));
  forward("%d-%s-%c-%x", 42, "ab", 'z', 255u);
  return 0;
}
