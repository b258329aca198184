#include "diff.h"
static int sparse(int x) {
  switch (x) {
    case -5: return 1;
    case 7: return 2;
    case 1000: return 3;
    case 123456: return 4;
    case -2147483647 - 1: return 5;
    default: return -1;
  }
}
static const char* name(int c) {
  switch (c % 6) {
    case 0: return "zero";
    case 1: return "one";
    case 2: return "two";
    case 3: return "three";
    case 4: return "four";
    default: return "other";
  }
}
int main() {
  const int probes[] = {-5, 7, 1000, 123456, -2147483647 - 1, 0, 8, -6, 999};
  for (int p : probes) printf("%d->%d ", p, sparse(opaque(p)));
  printf("\n");
  for (int i = 0; i < 14; ++i) printf("%s ", name(opaque(i)));
  printf("\n");
  return 0;
}
