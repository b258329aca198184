// The lockstep runners, one per Verilated build of hw/rtl/barrier_unit.sv (tb/barrier/CMakeLists.txt).
#include "Vbarrier_unit_p16.h"
#include "Vbarrier_unit_r4.h"
#include "Vbarrier_unit_r5.h"
#include "tb/barrier/lockstep_impl.hpp"

namespace sanvp::barrier::tb {
// NPORTS=8, NREGS=4.
LockstepResult run_lockstep_r4(const LockstepOptions& opt) { return run_lockstep<Vbarrier_unit_r4, 8>(opt, 4); }
// NPORTS=8, NREGS=5: a round-robin wrap that is not a power of two.
LockstepResult run_lockstep_r5(const LockstepOptions& opt) { return run_lockstep<Vbarrier_unit_r5, 8>(opt, 5); }
// NPORTS=16, NREGS=6.
LockstepResult run_lockstep_p16(const LockstepOptions& opt) { return run_lockstep<Vbarrier_unit_p16, 16>(opt, 6); }
}  // namespace sanvp::barrier::tb
