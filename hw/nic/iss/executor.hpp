// The Lanai execution engine, one instruction at a time: a switch over predecoded
// instructions. Templated on the environment (memory, fetch, observation hooks) so the loop has
// no virtual calls; `kObserve` instantiates a second loop with per-instruction hooks for trace,
// profile and debugger. The core's fast path is the block engine in threaded.hpp, which shares
// execute() below for everything it has no specialised handler for.
//
// Env must provide:
//   const Insn& fetch(CpuState&, uint32_t pc);              // throws Fault
//   uint32_t load(CpuState&, uint32_t ea, Width, bool zext); // throws Fault
//   void store(CpuState&, uint32_t ea, Width, uint32_t v);   // throws Fault; may zero s.budget
//   uint64_t taken_extra;                                     // extra cycles of a taken branch
//   (kObserve) void before(const CpuState&, const Insn&); void after(const CpuState&, const Insn&, uint64_t cycles);
#pragma once
#include <cstdint>

#include "hw/nic/iss/cpu_state.hpp"
#include "hw/nic/iss/isa.hpp"

namespace sanvp::lanai {

namespace alu {

inline void nz(Flags& f, std::uint32_t r) {
  f.n = r >> 31;
  f.z = r == 0;
}

// a + b + cin with carry out of bit 31 and signed overflow.
inline std::uint32_t add(std::uint32_t a, std::uint32_t b, std::uint32_t cin, Flags* f) {
  const std::uint64_t wide = std::uint64_t{a} + b + cin;
  const std::uint32_t r = static_cast<std::uint32_t>(wide);
  if (f) {
    nz(*f, r);
    f->c = wide >> 32;
    f->v = ((~(a ^ b) & (a ^ r)) >> 31) & 1;
  }
  return r;
}

// Shift by a signed amount: positive = left, negative = right (arithmetic if `arith`).
// Amounts beyond +-31 are undefined in the ISA; this returns what a 64-bit shifter would.
inline std::uint32_t shift(std::uint32_t a, std::int32_t amount, bool arith, Flags* f) {
  std::uint32_t r;
  bool c = false;
  const std::int64_t n = amount;
  if (n >= 0) {
    r = n >= 32 ? 0 : a << n;
    if (n > 0 && n <= 32) c = (a >> (32 - n)) & 1;
  } else {
    const std::int64_t m = -n;
    if (arith) r = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (m >= 32 ? 31 : m));
    else r = m >= 32 ? 0 : a >> m;
  }
  if (f) {
    nz(*f, r);
    f->v = false;
    f->c = c;
  }
  return r;
}

// Generic ALU used by jumps through pc and register-register address arithmetic:
// codes 0..6 = add..xor, 7 = sh, 8 = sha.
inline std::uint32_t op(unsigned code, std::uint32_t a, std::uint32_t b, Flags& fl, bool setf) {
  Flags* f = setf ? &fl : nullptr;
  switch (code) {
    case kAdd: return add(a, b, 0, f);
    case kAddc: return add(a, b, fl.c, f);
    case kSub: return add(a, ~b, 1, f);
    case kSubb: return add(a, ~b, fl.c, f);
    case kAnd: { std::uint32_t r = a & b; if (f) { nz(*f, r); f->v = f->c = false; } return r; }
    case kOr: { std::uint32_t r = a | b; if (f) { nz(*f, r); f->v = f->c = false; } return r; }
    case kXor: { std::uint32_t r = a ^ b; if (f) { nz(*f, r); f->v = f->c = false; } return r; }
    case 7: return shift(a, static_cast<std::int32_t>(b), false, f);
    default: return shift(a, static_cast<std::int32_t>(b), true, f);
  }
}

}  // namespace alu

inline void jump_after(CpuState& s, unsigned slots, std::uint32_t target) {
  if (slots == 1) {
    s.q[1] = target;
    s.qmask = (s.qmask & 1u) | 2u;  // a later jump cancels any pending farther one
  } else {
    s.q[2] = target;
    s.qmask |= 4u;
  }
}

[[noreturn]] inline void stack_fault(std::uint32_t pc, std::uint32_t sp) {
  throw Fault{FaultKind::kStackOverflow, pc, sp, "stack pointer below the stack limit"};
}

// Executes one fetched instruction at `pc` (its pc already in s.pc and r2) and returns its
// cycles (a taken branch included). Does not touch the counters or the delay-slot shift: the
// loops do that. Shared by run() below and the block engine (threaded.hpp).
template <class Env>
inline std::uint64_t execute(CpuState& s, Env& env, const Insn& d, std::uint32_t pc) {
  std::uint32_t* const R = s.r.data();
  std::uint64_t cyc = d.cyc;
  switch (d.op) {
#define SANVP_RI(OP, EXPR)                \
  case Op::OP: {                          \
    const std::uint32_t a = R[d.rs1], b = d.imm; \
    Flags* f = d.setf ? &s.f : nullptr;   \
    (void)f; (void)b;                     \
    R[d.rd] = (EXPR);                     \
    break;                                \
  }
#define SANVP_RR(OP, EXPR)                \
  case Op::OP: {                          \
    if (d.cc && !cond_holds(d.cc, s.f)) break; \
    const std::uint32_t a = R[d.rs1], b = R[d.rs2]; \
    Flags* f = d.setf ? &s.f : nullptr;   \
    (void)f; (void)b;                     \
    R[d.rd] = (EXPR);                     \
    break;                                \
  }
#define SANVP_LOGIC(OPER) ([&] { std::uint32_t r = a OPER b; if (f) { alu::nz(*f, r); f->v = false; f->c = false; } return r; }())
#define SANVP_LOGIC_RR(OPER) ([&] { std::uint32_t r = a OPER b; if (f) { alu::nz(*f, r); f->v = false; } return r; }())
    SANVP_RI(kAddRI, alu::add(a, b, 0, f))
    SANVP_RI(kAddcRI, alu::add(a, b, s.f.c, f))
    SANVP_RI(kSubRI, alu::add(a, ~b, 1, f))
    SANVP_RI(kSubbRI, alu::add(a, ~b, s.f.c, f))
    SANVP_RI(kAndRI, SANVP_LOGIC(&))
    SANVP_RI(kOrRI, SANVP_LOGIC(|))
    SANVP_RI(kXorRI, SANVP_LOGIC(^))
    SANVP_RI(kShRI, alu::shift(a, static_cast<std::int32_t>(b), false, f))
    SANVP_RI(kShaRI, alu::shift(a, static_cast<std::int32_t>(b), true, f))
    SANVP_RR(kAddRR, alu::add(a, b, 0, f))
    SANVP_RR(kAddcRR, alu::add(a, b, s.f.c, f))
    SANVP_RR(kSubRR, alu::add(a, ~b, 1, f))
    SANVP_RR(kSubbRR, alu::add(a, ~b, s.f.c, f))
    SANVP_RR(kAndRR, SANVP_LOGIC_RR(&))
    SANVP_RR(kOrRR, SANVP_LOGIC_RR(|))
    SANVP_RR(kXorRR, SANVP_LOGIC_RR(^))
    SANVP_RR(kShRR, alu::shift(a, static_cast<std::int32_t>(b), false, f))
    SANVP_RR(kShaRR, alu::shift(a, static_cast<std::int32_t>(b), true, f))
#undef SANVP_RI
#undef SANVP_RR
#undef SANVP_LOGIC
#undef SANVP_LOGIC_RR
    case Op::kSel:
      R[d.rd] = cond_holds(d.cc, s.f) ? R[d.rs1] : R[d.rs2];
      break;
    case Op::kScc:
      R[d.rd] = cond_holds(d.cc, s.f) ? 1u : 0u;
      break;
    case Op::kSli:
      R[d.rd] = d.imm;
      break;
    case Op::kPopc:
      R[d.rd] = static_cast<std::uint32_t>(__builtin_popcount(R[d.rs1]));
      break;
    case Op::kLeadz: {
      const std::uint32_t a = R[d.rs1];
      R[d.rd] = a ? static_cast<std::uint32_t>(__builtin_clz(a)) : 32u;
      break;
    }
    case Op::kTrailz: {
      const std::uint32_t a = R[d.rs1];
      R[d.rd] = a ? static_cast<std::uint32_t>(__builtin_ctz(a)) : 32u;
      break;
    }
    case Op::kBr:
      if (cond_holds(d.cc, s.f)) {
        jump_after(s, 1, d.imm);
        cyc += env.taken_extra;
      }
      break;
    case Op::kAluToPc: {
      std::uint32_t v;
      if (d.alu <= 8) {
        if (d.rrm && d.cc && !cond_holds(d.cc, s.f)) break;  // predicated RR, not taken
        v = alu::op(d.alu, R[d.rs1], d.rrm ? R[d.rs2] : d.imm, s.f, d.setf);
      } else if (d.alu == 9) {
        v = cond_holds(d.cc, s.f) ? R[d.rs1] : R[d.rs2];
      } else if (d.alu == 10) {
        v = cond_holds(d.cc, s.f) ? 1u : 0u;
      } else {
        v = d.imm;
      }
      jump_after(s, 1, v);
      break;
    }
    case Op::kLoad:
    case Op::kStore: {
      const std::uint32_t base = R[d.rs1];
      std::uint32_t ea;
      if (d.mode == AddrMode::kAbsolute) {
        ea = d.imm;
      } else {
        const std::uint32_t k = d.rrm ? alu::op(d.alu, base, R[d.rs2], s.f, false) : base + d.imm;
        ea = (d.mode == AddrMode::kOffset || d.mode == AddrMode::kPre) ? k : base;
        if (d.mode == AddrMode::kPost || d.mode == AddrMode::kPre) {
          // The access comes first so a faulting access leaves the base unchanged.
          if (d.op == Op::kStore) {
            env.store(s, ea, d.width, R[d.rd]);
            R[d.wb] = k;
            break;
          }
          const std::uint32_t v = env.load(s, ea, d.width, d.zext);
          R[d.wb] = k;
          if (d.to_pc) jump_after(s, 2, v);
          else R[d.rd] = v;
          break;
        }
      }
      if (d.op == Op::kStore) {
        env.store(s, ea, d.width, R[d.rd]);
      } else {
        const std::uint32_t v = env.load(s, ea, d.width, d.zext);
        if (d.to_pc) jump_after(s, 2, v);
        else R[d.rd] = v;
      }
      break;
    }
    case Op::kBrr:
      throw Fault{FaultKind::kUnsupportedInstruction, pc, pc, "BRR (pc-relative branch) is not emitted by LLVM 14 and is not modelled"};
    case Op::kIllegal:
    default:
      throw Fault{FaultKind::kIllegalInstruction, pc, pc, "illegal instruction"};
  }
  if (d.writes_sp && R[kSp] < s.stack_limit) stack_fault(pc, R[kSp]);
  return cyc;
}

// Runs until s.cycles >= s.budget. Faults propagate as `Fault` exceptions with the state as of
// the faulting instruction (its pc in s.pc).
template <class Env, bool kObserve>
void run(CpuState& s, Env& env) {
  std::uint32_t* const R = s.r.data();
  while (s.cycles < s.budget) {
    const std::uint32_t pc = s.pc;
    const Insn& d = env.fetch(s, pc);
    R[kPc] = pc;
    s.hist[s.hist_n++ & 15u] = pc;
    if constexpr (kObserve) env.before(s, d);
    const std::uint64_t cyc = execute(s, env, d, pc);
    s.cycles += cyc;
    ++s.instret;
    if constexpr (kObserve) env.after(s, d, cyc);
    if (s.qmask == 0) {
      s.pc = pc + 4;
    } else {
      s.pc = (s.qmask & 1u) ? s.q[0] : pc + 4;
      s.q[0] = s.q[1];
      s.q[1] = s.q[2];
      s.qmask >>= 1;
    }
  }
}

}  // namespace sanvp::lanai
