// Test firmware for scenario runs: prints a line, then stores to an address no device decodes,
// so the core faults (a scenario with this image must stop with the fault report).
#include "fw/fw.h"

int main() {
  printf("about to store outside every device\n");
  *reinterpret_cast<volatile unsigned*>(0x0F000000u) = 1;
  return 0;
}
