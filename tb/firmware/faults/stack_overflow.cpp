// Unbounded recursion runs into the stack guard.
#include "fw/fw.h"
#pragma clang diagnostic ignored "-Winfinite-recursion"
__attribute__((noinline)) static int dive(int n) {
  volatile char frame[200];
  frame[0] = static_cast<char>(n);
  return dive(n + 1) + frame[0];
}
int main() {
  printf("before\n");
  return dive(0);
}
