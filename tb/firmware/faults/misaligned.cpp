// A word load from an address that is not a multiple of 4.
#include "fw/fw.h"
static uint32_t words[4] = {1, 2, 3, 4};
int main() {
  volatile uintptr_t p = reinterpret_cast<uintptr_t>(words) + 2;
  printf("%u\n", *reinterpret_cast<volatile uint32_t*>(p));
  return 0;
}
