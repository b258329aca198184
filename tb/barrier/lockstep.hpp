// Lockstep testbench: the SystemC golden BarrierUnit and the Verilated barrier_unit.sv share one
// stimulus and are compared on every cycle. Two stimulus modes:
//   protocol  a barrier environment around the unit: groups are set up (ALLOC) with random P and
//             C, children arrive in random order and timing, the parent answers each REDUCE with a
//             DISTRIBUTE, output ports stall at random (normal worms), groups are torn down and
//             their registers re-used, ALLOCs beyond the register count meet exhaustion; a
//             scoreboard checks every output and config response against the BTIN rules;
//   chaos     unconstrained random messages and register writes over a small GID set, to reach
//             every drop path (duplicates, busy, wrong port) in both models.
// The harness (tb/rtl/lockstep.hpp) stops at the first mismatch or scoreboard failure and reports
// the cycle, the differing outputs of both models and the stimulus of the last cycles.
#pragma once
#include <cstdint>
#include <string>

#include "tb/rtl/lockstep.hpp"

namespace sanvp::barrier::tb {

// cycles, seed, vcd, vcd_from, vcd_cycles, history: see sanvp::tb::LockstepOptions (the first
// three edges are reset).
struct LockstepOptions : sanvp::tb::LockstepOptions {
  bool chaos = false;
  std::uint64_t fault_at = ~std::uint64_t{0};  // golden model misreports from this cycle (checker self-test)
  int registers = 4;                // must match the Verilated NREGS
};

// cycles, mismatch, mismatch_cycle, report, error (scoreboard): see sanvp::tb::LockstepResult.
struct LockstepResult : sanvp::tb::LockstepResult {
  // Coverage of the run (counted from the golden model / the environment).
  std::uint64_t messages_in = 0, messages_out = 0, reduces_out = 0, reduces_fired = 0, episodes = 0;
  std::uint64_t allocs_ok = 0, allocs_full = 0, releases = 0, config_errors = 0, drops = 0;
  std::uint64_t stall_cycles = 0, same_cycle_multi_arrivals = 0;
  std::uint64_t drop_reasons[6] = {};  // golden model, by DropReason, since the last reset
};

// Runs one lockstep simulation in this process (one SystemC kernel per process).
LockstepResult run_lockstep_r4(const LockstepOptions& opt);  // RTL with NPORTS=8, NREGS=4
LockstepResult run_lockstep_r5(const LockstepOptions& opt);  // RTL with NPORTS=8, NREGS=5
LockstepResult run_lockstep_p16(const LockstepOptions& opt); // RTL with NPORTS=16, NREGS=6

}  // namespace sanvp::barrier::tb
