// Never exits: `sanvp fw run --timeout` must stop it with an error.
#include "fw/fw.h"
int main() {
  for (;;) fw::sys_reg(sanvp::nic::map::kScratch) = 1;
}
