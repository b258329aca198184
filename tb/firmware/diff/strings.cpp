#include "diff.h"
int main() {
  char a[64] = "hello, lanai";
  char b[64];
  memcpy(b, a, strlen(a) + 1);
  printf("%s %d %d %d\n", b, static_cast<int>(strlen(b)), strcmp(a, b), memcmp(a, "hellp", 5) < 0);
  memmove(a + 2, a, 10);  // overlapping, forward
  a[12] = 0;
  printf("fwd=%s\n", a);
  memmove(b, b + 3, 8);  // overlapping, backward
  b[8] = 0;
  printf("bwd=%s\n", b);
  memset(a, 'x', 5);
  printf("set=%s\n", a);
  char buf[16];
  const char* volatile s1 = "abcdef";
  const char* volatile s2 = "ghijkl";
  int n = snprintf(buf, sizeof buf, "%s-%d-%s", s1, 12345, s2);
  printf("snprintf=%s n=%d\n", buf, n);
  unsigned char odd[40];
  for (int i = 0; i < 40; ++i) odd[i] = static_cast<unsigned char>(i);
  memcpy(odd + 1, odd + 20, 13);  // unaligned copy
  unsigned s = 0;
  for (int i = 0; i < 40; ++i) s = s * 7u + odd[i];
  printf("odd=%u cmp=%d\n", s, strcmp("abc", "abd") < 0);
  return 0;
}
