// Executes a word that is not a Lanai instruction.
#include "fw/fw.h"
__attribute__((noinline)) static void run_bad_word() { asm volatile(".long 0xd0000000"); }
int main() {
  printf("before\n");
  run_bad_word();
  printf("not reached\n");
  return 0;
}
