#include "diff.h"
struct Big {
  int a[24];
  char tag[9];
  short s;
};
static Big make(int seed) {
  Big b;
  for (int i = 0; i < 24; ++i) b.a[i] = seed * (i + 1) - i * i;
  for (int i = 0; i < 8; ++i) b.tag[i] = static_cast<char>('a' + (seed + i) % 26);
  b.tag[8] = 0;
  b.s = static_cast<short>(seed * 1000);
  return b;
}
static int sum(Big b) {
  int s = b.s;
  for (int x : b.a) s += x;
  b.a[0] = 0;  // modifies the copy only
  return s;
}
int main() {
  Big x = make(opaque(7));
  Big y = x;
  y.a[3] = -1;
  Big arr[3];
  for (int i = 0; i < 3; ++i) arr[i] = make(opaque(i + 2));
  arr[1] = arr[2];
  printf("x=%d y=%d a0=%d tag=%s s=%d\n", sum(x), sum(y), x.a[0], x.tag, x.s);
  printf("arr=%d %d %d %s\n", sum(arr[0]), sum(arr[1]), sum(arr[2]), arr[1].tag);
  return 0;
}
