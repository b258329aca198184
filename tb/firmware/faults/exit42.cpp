// exit(code) from deep inside the firmware ends the simulation with that code.
#include "fw/fw.h"
__attribute__((noinline)) static void finish(int code) {
  printf("finishing\n");
  exit(code);
}
int main() {
  finish(42);
  return 0;
}
