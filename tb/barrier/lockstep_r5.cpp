// Lockstep runner against the RTL built with NPORTS=8, NREGS=5 (round-robin wrap that is not a
// power of two).
#include "Vbarrier_unit_r5.h"
#include "tb/barrier/lockstep_impl.hpp"

namespace sanvp::barrier::tb {
LockstepResult run_lockstep_r5(const LockstepOptions& opt) {
  LockstepOptions o = opt;
  o.registers = 5;
  return run_lockstep<Vbarrier_unit_r5, 8>(o);
}
}  // namespace sanvp::barrier::tb
