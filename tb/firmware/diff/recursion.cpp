#include "diff.h"
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}
static int seven(int a, int b, int c, int d, int e, int f, int g) {
  if (a <= 0) return b + c * 2 + d * 3 + e * 4 + f * 5 + g * 6;
  return seven(a - 1, g, a, b, c, d, e) + a;
}
static unsigned hanoi(int n, int from, int to, int via, unsigned acc) {
  if (n == 0) return acc;
  acc = hanoi(n - 1, from, via, to, acc);
  acc = acc * 3u + static_cast<unsigned>(from * 4 + to);
  return hanoi(n - 1, via, to, from, acc);
}
int main() {
  printf("fib(18)=%d ack(2,3)=%d ack(3,3)=%d\n", fib(opaque(18)), ack(2, opaque(3)), ack(3, opaque(3)));
  printf("seven=%d\n", seven(opaque(9), 1, 2, 3, 4, 5, 6));
  printf("hanoi=%u\n", hanoi(opaque(12), 1, 3, 2, 0));
  return 0;
}
