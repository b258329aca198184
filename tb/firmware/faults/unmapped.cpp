// Reads an address no device answers.
#include "fw/fw.h"
__attribute__((noinline)) static uint32_t read_nowhere(uint32_t addr) { return *reinterpret_cast<volatile uint32_t*>(addr); }
int main() {
  printf("before\n");
  volatile uint32_t a = 0x40000000u;
  printf("%u\n", read_nowhere(a));
  return 0;
}
