// Debug-information test program (tb/firmware/test_debug_build.cpp): the test finds each
// function's line by its LINE: marker and checks the DWARF line table against the map file.
#include "fw/fw.h"

__attribute__((noinline)) int leaf(int x) {  // LINE:leaf
  return x * 3 + 1;
}

__attribute__((noinline)) int mid(int x) {  // LINE:mid
  return leaf(x) + 2;
}

int main() {  // LINE:main
  int s = 0;
  for (int i = 0; i < 3; ++i) s += mid(i);
  printf("sum %d\n", s);
  return s == 18 ? 0 : 1;
}
