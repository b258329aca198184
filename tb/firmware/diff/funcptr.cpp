#include "diff.h"
static int inc(int x) { return x + 1; }
static int dbl(int x) { return 2 * x; }
static int neg(int x) { return -x; }
struct Acc {
  int v;
  int add(int x) { return v += x; }
  int mul(int x) { return v *= x; }
};
int main() {
  int (*ops[])(int) = {inc, dbl, neg};
  int x = opaque(5);
  for (int i = 0; i < 9; ++i) x = ops[i % 3](x);
  printf("round-robin=%d\n", x);
  Acc a{opaque(3)};
  int (Acc::*m[])(int) = {&Acc::add, &Acc::mul};
  for (int i = 0; i < 6; ++i) (a.*m[i & 1])(i + 1);
  printf("acc=%d\n", a.v);
  int (*volatile pick)(int) = opaque(1) ? dbl : inc;
  printf("pick=%d\n", pick(21));
  return 0;
}
