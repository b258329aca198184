#include "diff.h"
static char* utoa(unsigned v, char* buf, unsigned base) {
  char tmp[33]; int n = 0;
  do { unsigned d = v % base; tmp[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10); v /= base; } while (v);
  int i = 0; while (n) buf[i++] = tmp[--n]; buf[i] = 0;
  return buf;
}
static int atoi_(const char* s) { int sign = 1, v = 0; if (*s == '-') { sign = -1; ++s; } while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0'); return sign * v; }
int main() {
  char b[40];
  const unsigned vals[] = {0u, 7u, 255u, 65535u, 123456789u, 4294967295u};
  for (unsigned v : vals) {
    printf("%s ", utoa(opaque(v), b, 2));
    printf("%s ", utoa(opaque(v), b, 8));
    printf("%s ", utoa(opaque(v), b, 36));
    printf("%s\n", utoa(opaque(v), b, 10));
  }
  printf("atoi=%d %d %d\n", atoi_("12345"), atoi_("-987"), atoi_("0"));
  return 0;
}
