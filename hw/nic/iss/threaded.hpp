// The block engine: the core's fast path. Runs predecoded basic blocks with threaded dispatch
// (one indirect jump per instruction through a table of handler addresses, GCC/Clang computed
// goto; define SANVP_ISS_SWITCH for a portable switch instead).
//
// Exactly the semantics of run() in executor.hpp, instruction for instruction: every
// instruction sets r2, the pc history, the cycle and instruction counters and the delay-slot
// queue as there, so loads, stores and faults see the same state at the same cycle. What moves
// is the budget test: a block runs without it only when even its slowest path (every branch
// taken) ends before the budget; otherwise it runs one instruction at a time with the test
// before each, as run() does. A load or store may end the slice early (a target called
// request_sync or request_exit, which zero the budget) or invalidate predecoded code (a store
// into code, or an access that let other processes run): the block is left after it.
//
// Env must provide, besides executor.hpp's load/store/taken_extra:
//   BlockRef block(CpuState&, uint32_t pc);  // throws Fault on a bad pc; insns == nullptr: no
//                                            // block engine now (the caller falls back to run())
//   bool leave_block;                        // set by an access that invalidated code
#pragma once
#include <cstdint>

#include "hw/nic/iss/executor.hpp"

#if defined(__GNUC__) && !defined(SANVP_ISS_SWITCH)
#define SANVP_ISS_THREADED 1
#else
#define SANVP_ISS_THREADED 0
#endif

namespace sanvp::lanai {

// Runs until s.cycles >= s.budget or the environment has no block for the pc.
template <class Env>
void run_blocks(CpuState& s, Env& env) {
  std::uint32_t* const R = s.r.data();
  // Counters live in registers; written back before anything that can look at them (a load or
  // store may reach a device that reads the core's time; faults report them).
  std::uint64_t cycles = s.cycles, instret = s.instret;
  std::uint32_t hn = s.hist_n;
#define SANVP_SYNC() (s.cycles = cycles, s.instret = instret, s.hist_n = hn)
#if SANVP_ISS_THREADED
  // Same order as lanai::Fast.
  static const void* const kHandlers[] = {&&L_kGeneric, &&L_kAddI, &&L_kSubI, &&L_kAndI, &&L_kOrI, &&L_kXorI,
                                          &&L_kShI, &&L_kShaI, &&L_kSubIF, &&L_kAddR, &&L_kSubR, &&L_kAndR,
                                          &&L_kOrR, &&L_kXorR, &&L_kSubRF, &&L_kSli, &&L_kBr, &&L_kLdW, &&L_kStW};
  static_assert(sizeof kHandlers / sizeof kHandlers[0] == static_cast<unsigned>(Fast::kCount));
#define SANVP_DISPATCH() goto* kHandlers[static_cast<unsigned>(d->xop)]
#define SANVP_CASE(X) L_##X
#else
#define SANVP_DISPATCH() goto dispatch
#define SANVP_CASE(X) case Fast::X
#endif
// r2 is stored only where it can be read or seen: by the generic handler (the specialised ones
// never read r2, see fast_op), before loads and stores (which may fault or let other processes
// look) and when the block is left, so the state is always as run() leaves it.
#define SANVP_ENTER()           \
  s.hist[hn++ & 15u] = pc;      \
  SANVP_DISPATCH()
  // End of an instruction: counters, then the delay-slot queue exactly as run() does it; a
  // redirected pc ends the block.
#define SANVP_RETIRE(CYC)                              \
  cycles += (CYC);                                     \
  ++instret;                                           \
  if (__builtin_expect(s.qmask != 0, 0)) {             \
    const bool jump = s.qmask & 1u;                    \
    const std::uint32_t to = s.q[0];                   \
    s.q[0] = s.q[1];                                   \
    s.q[1] = s.q[2];                                   \
    s.qmask >>= 1;                                     \
    if (jump) {                                        \
      R[kPc] = pc;                                     \
      pc = to;                                         \
      goto out;                                        \
    }                                                  \
  }                                                    \
  pc += 4;
#define SANVP_NEXT(CYC)     \
  SANVP_RETIRE(CYC)         \
  if (--n == 0) goto last;  \
  ++d;                      \
  SANVP_ENTER();
#define SANVP_NEXT_CHECKED(CYC)                                          \
  SANVP_RETIRE(CYC)                                                      \
  if (--n == 0 || env.leave_block || cycles >= s.budget) goto last;      \
  ++d;                                                                   \
  SANVP_ENTER();

  while (cycles < s.budget) {
    SANVP_SYNC();
    const BlockRef b = env.block(s, s.pc);
    if (!b.insns) break;
    const Insn* d = b.insns;
    std::uint32_t pc = s.pc;
    // The slice ends inside this block: one instruction at a time, budget tested before each.
    std::uint32_t n = cycles + b.max_cycles < s.budget ? b.len : 1;
    env.leave_block = false;
    SANVP_ENTER();
#if !SANVP_ISS_THREADED
  dispatch:
    switch (d->xop) {
#endif
    SANVP_CASE(kGeneric) : {
      SANVP_SYNC();
      s.pc = pc;
      R[kPc] = pc;
      const std::uint64_t c = execute(s, env, *d, pc);
      SANVP_NEXT_CHECKED(c)
    }
    SANVP_CASE(kAddI) : { R[d->rd] = R[d->rs1] + d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kSubI) : { R[d->rd] = R[d->rs1] - d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kAndI) : { R[d->rd] = R[d->rs1] & d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kOrI) : { R[d->rd] = R[d->rs1] | d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kXorI) : { R[d->rd] = R[d->rs1] ^ d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kShI) : {
      R[d->rd] = alu::shift(R[d->rs1], static_cast<std::int32_t>(d->imm), false, nullptr);
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kShaI) : {
      R[d->rd] = alu::shift(R[d->rs1], static_cast<std::int32_t>(d->imm), true, nullptr);
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kSubIF) : { R[d->rd] = alu::add(R[d->rs1], ~d->imm, 1, &s.f); SANVP_NEXT(d->cyc) }
    SANVP_CASE(kAddR) : { R[d->rd] = R[d->rs1] + R[d->rs2]; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kSubR) : { R[d->rd] = R[d->rs1] - R[d->rs2]; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kAndR) : { R[d->rd] = R[d->rs1] & R[d->rs2]; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kOrR) : { R[d->rd] = R[d->rs1] | R[d->rs2]; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kXorR) : { R[d->rd] = R[d->rs1] ^ R[d->rs2]; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kSubRF) : { R[d->rd] = alu::add(R[d->rs1], ~R[d->rs2], 1, &s.f); SANVP_NEXT(d->cyc) }
    SANVP_CASE(kSli) : { R[d->rd] = d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kBr) : {
      if (cond_holds(d->cc, s.f)) {
        jump_after(s, 1, d->imm);
        SANVP_NEXT(d->cyc + env.taken_extra)
      }
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kLdW) : {
      SANVP_SYNC();
      s.pc = pc;
      R[kPc] = pc;
      const std::uint32_t v = env.load(s, R[d->rs1] + d->imm, Width::kWord, false);
      R[d->rd] = v;
      SANVP_NEXT_CHECKED(d->cyc)
    }
    SANVP_CASE(kStW) : {
      SANVP_SYNC();
      s.pc = pc;
      R[kPc] = pc;
      env.store(s, R[d->rs1] + d->imm, Width::kWord, R[d->rd]);
      SANVP_NEXT_CHECKED(d->cyc)
    }
#if !SANVP_ISS_THREADED
      default: break;
    }
#endif
  last:  // left after a sequential instruction: r2 = its pc
    R[kPc] = pc - 4;
  out:
    s.pc = pc;
  }
  SANVP_SYNC();
#undef SANVP_SYNC
#undef SANVP_DISPATCH
#undef SANVP_CASE
#undef SANVP_ENTER
#undef SANVP_RETIRE
#undef SANVP_NEXT
#undef SANVP_NEXT_CHECKED
}

}  // namespace sanvp::lanai
