// Lockstep testbench: the SystemC golden BarrierUnit and the Verilated barrier_unit.sv share one
// stimulus and are compared on every cycle. Two stimulus modes:
//   protocol  a barrier environment around the unit: groups are set up (ALLOC) with random P and
//             C, children arrive in random order and timing, the parent answers each REDUCE with a
//             DISTRIBUTE, output ports stall at random (normal worms), groups are torn down and
//             their registers re-used, ALLOCs beyond the register count meet exhaustion; a
//             scoreboard checks every output and config response against the BTIN rules;
//   chaos     unconstrained random messages and register writes over a small GID set, to reach
//             every drop path (duplicates, busy, wrong port) in both models.
// The first mismatch stops the run and is reported with the cycle, the inputs of that edge and
// both models' outputs.
#pragma once
#include <cstdint>
#include <string>

namespace sanvp::barrier::tb {

struct LockstepOptions {
  std::uint64_t cycles = 100000;
  std::uint64_t seed = 1;
  bool chaos = false;
  std::string vcd;                  // RTL waves (Verilator VCD); empty: none
  std::uint64_t vcd_cycles = 20000; // waves cover the first vcd_cycles cycles
  std::uint64_t fault_at = ~std::uint64_t{0};  // golden model misreports from this cycle (checker self-test)
  int registers = 4;                // must match the Verilated NREGS
};

struct LockstepResult {
  std::uint64_t cycles = 0;
  bool mismatch = false;
  std::uint64_t mismatch_cycle = 0;
  std::string report;         // first mismatch or scoreboard failure, multi-line
  std::string scoreboard_error;
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
