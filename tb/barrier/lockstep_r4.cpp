// Lockstep runner against the RTL built with NPORTS=8, NREGS=4.
#include "Vbarrier_unit_r4.h"
#include "tb/barrier/lockstep_impl.hpp"

namespace sanvp::barrier::tb {
LockstepResult run_lockstep_r4(const LockstepOptions& opt) {
  LockstepOptions o = opt;
  o.registers = 4;
  return run_lockstep<Vbarrier_unit_r4, 8>(o);
}
}  // namespace sanvp::barrier::tb
