// Architectural state of one Lanai core plus the bookkeeping the executor needs (delay-slot
// queue, cycle and instruction counters, pc history for fault reports).
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "hw/nic/iss/isa.hpp"

namespace sanvp::lanai {

struct CpuState {
  // r[0..31] are the GPRs (r[0] = 0 and r[1] = 0xFFFFFFFF always; r[2] is refreshed with the
  // executing instruction's address). r[32] is the discard slot for writes to r0/r1.
  std::array<std::uint32_t, 34> r{};
  Flags f;
  std::uint32_t pc = 0;
  // Next-pc override queue: q[i] applies after the i-th instruction from now when bit i of
  // qmask is set (section 5 of the ISA notes: 1 delay slot for branches, 2 for loads into pc).
  std::array<std::uint32_t, 3> q{};
  std::uint32_t qmask = 0;
  std::uint64_t cycles = 0;   // core cycles since reset
  std::uint64_t instret = 0;  // instructions retired since reset
  std::uint64_t budget = 0;   // run() returns once cycles >= budget (set to 0 to stop at once)
  std::uint32_t stack_limit = 0;  // writes of sp below this are a stack overflow
  std::array<std::uint32_t, 16> hist{};  // last pcs, ring buffer
  std::uint32_t hist_n = 0;

  void reset(std::uint32_t entry) {
    r.fill(0);
    r[kR1] = 0xFFFFFFFFu;
    f = Flags{};
    pc = entry;
    qmask = 0;
    cycles = instret = 0;
    hist_n = 0;
  }
  std::uint32_t gpr(unsigned i) const { return i == kPc ? pc : r[i]; }
};

enum class FaultKind {
  kIllegalInstruction,
  kUnsupportedInstruction,
  kMisalignedAccess,
  kUnmappedAccess,
  kBusError,  // a device answered with an error other than "no such address"
  kStackOverflow,
  kFetchOutsideCode,
  kMisalignedFetch,
};

const char* fault_kind_name(FaultKind k);

// Thrown from inside the executor; the core turns it into a fault report.
struct Fault {
  FaultKind kind;
  std::uint32_t pc;
  std::uint32_t addr;   // offending data address / fetch address / new sp
  std::string detail;   // one line, e.g. "load of 4 bytes at 0x40000000: no device"
};

}  // namespace sanvp::lanai
