// Calls through a null function pointer: a fetch outside the code.
#include "fw/fw.h"
int main() {
  void (*volatile fn)() = nullptr;
  fn();
  return 0;
}
