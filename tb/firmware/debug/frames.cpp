// Debugger test program (tb/firmware/test_debugger.cpp): a three-deep call chain that writes a
// global buffer. The test finds lines by their LINE: markers.
#include "fw/fw.h"

unsigned g_buf[4];
unsigned g_other;

__attribute__((noinline)) unsigned inner(unsigned x) {
  g_other = x;        // LINE:inner_other
  g_buf[2] = x * 7;   // LINE:inner_write
  return g_buf[2] + 1;
}

__attribute__((noinline)) unsigned middle(unsigned x) {
  unsigned r = inner(x + 1);  // LINE:middle_call
  return r * 2;               // LINE:middle_after
}

__attribute__((noinline)) unsigned outer(unsigned x) {
  return middle(x) + 3;  // LINE:outer_call
}

int main() {
  unsigned a = outer(5);      // LINE:main_call
  printf("result %u\n", a);   // LINE:main_print
  return a == 2 * (6 * 7 + 1) + 3 ? 0 : 1;
}
