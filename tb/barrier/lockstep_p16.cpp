// Lockstep runner against the RTL built with NPORTS=16, NREGS=6 (a Myrinet-2000 class switch).
#include "Vbarrier_unit_p16.h"
#include "tb/barrier/lockstep_impl.hpp"

namespace sanvp::barrier::tb {
LockstepResult run_lockstep_p16(const LockstepOptions& opt) {
  LockstepOptions o = opt;
  o.registers = 6;
  return run_lockstep<Vbarrier_unit_p16, 16>(o);
}
}  // namespace sanvp::barrier::tb
