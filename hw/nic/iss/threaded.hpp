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
// Loads and stores go straight to host memory when the environment's DMI window holds the
// (aligned) address, and for stores when it lies outside the code range: nothing else can see
// such an access. Everything else (misaligned, outside the window, stores into code, which
// must reach the environment's code check) goes through env.load/store with the state synced.
//
// Env must provide, besides executor.hpp's load/store/taken_extra:
//   BlockRef block(CpuState&, uint32_t pc);  // throws Fault on a bad pc; insns == nullptr: no
//                                            // block engine now (the caller falls back to run())
//   bool leave_block;                        // set by an access that invalidated code
//   DirectMem direct_mem();                  // read at the start and again after any access
//                                            // through the environment (only then can it change)
#pragma once
#include <cstdint>

#include "hw/nic/iss/executor.hpp"

#if defined(__GNUC__) && !defined(SANVP_ISS_SWITCH)
#define SANVP_ISS_THREADED 1
#else
#define SANVP_ISS_THREADED 0
#endif

namespace sanvp::lanai {

namespace direct {
inline std::uint32_t ld32(const std::uint8_t* p) {
  std::uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline std::uint32_t ld16(const std::uint8_t* p) { return (std::uint32_t{p[0]} << 8) | p[1]; }
inline void st32(std::uint8_t* p, std::uint32_t v) {
  const std::uint32_t b = __builtin_bswap32(v);
  __builtin_memcpy(p, &b, 4);
}
inline void st16(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}
inline void st8(std::uint8_t* p, std::uint32_t v) { p[0] = static_cast<std::uint8_t>(v); }
}  // namespace direct

// GCC merges the handlers' identical tails into shared jumps unless told not to, which turns
// the per-handler indirect jumps back into one badly predicted jump.
#if SANVP_ISS_THREADED && defined(__GNUC__) && !defined(__clang__)
#define SANVP_ISS_HOT __attribute__((optimize("no-crossjumping", "no-gcse")))
#else
#define SANVP_ISS_HOT
#endif

// Runs until s.cycles >= s.budget or the environment has no block for the pc. One function
// (well over 80 lines) because computed goto cannot leave it.
template <class Env>
SANVP_ISS_HOT void run_blocks(CpuState& s, Env& env) {
  std::uint32_t* const R = s.r.data();
  // Counters live in registers; written back before anything that can look at them (a load or
  // store may reach a device that reads the core's time; faults report them).
  std::uint64_t cycles = s.cycles, instret = s.instret;
  std::uint32_t hn = s.hist_n;
#define SANVP_SYNC() (s.cycles = cycles, s.instret = instret, s.hist_n = hn)
#if SANVP_ISS_THREADED
#define SANVP_LABEL(N) &&L_##N,
  static const void* const kHandlers[] = {SANVP_FAST_LIST(SANVP_LABEL)};
#undef SANVP_LABEL
  static_assert(sizeof kHandlers / sizeof kHandlers[0] == static_cast<unsigned>(Fast::kCount));
#define SANVP_DISPATCH() goto* kHandlers[static_cast<unsigned>(d->xop)]
#define SANVP_CASE(X) L_##X
#else
#define SANVP_DISPATCH() goto dispatch
#define SANVP_CASE(X) case Fast::X
#endif
// r2 is stored only where it can be read or seen: by the generic handler (the specialised ones
// never read r2, see fast_op), before accesses through the environment (which may fault or let
// other processes look), before a fault and when the block is left, so the state is always as
// run() leaves it.
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
// Before anything that may look at the state: the environment, a fault.
#define SANVP_EXPOSE() \
  SANVP_SYNC();        \
  s.pc = pc;           \
  R[kPc] = pc;         \
  stale_dm = true;
#define SANVP_SP_CHECK()                                                 \
  if (__builtin_expect(R[kSp] < s.stack_limit, 0)) {                     \
    SANVP_EXPOSE()                                                       \
    stack_fault(pc, R[kSp]);                                             \
  }
  // ALU: the nine ops of one form; B the second operand, F the flags (nullptr: none), LF what a
  // logical op does to the flags.
#define SANVP_ALU9(SUF, B, F, LF)                                                                         \
  SANVP_CASE(kAdd##SUF) : { R[d->rd] = alu::add(R[d->rs1], (B), 0, (F)); SANVP_NEXT(d->cyc) }            \
  SANVP_CASE(kAddc##SUF) : { R[d->rd] = alu::add(R[d->rs1], (B), s.f.c, (F)); SANVP_NEXT(d->cyc) }       \
  SANVP_CASE(kSub##SUF) : { R[d->rd] = alu::add(R[d->rs1], ~(B), 1, (F)); SANVP_NEXT(d->cyc) }           \
  SANVP_CASE(kSubb##SUF) : { R[d->rd] = alu::add(R[d->rs1], ~(B), s.f.c, (F)); SANVP_NEXT(d->cyc) }      \
  SANVP_CASE(kAnd##SUF) : { const std::uint32_t r = R[d->rs1] & (B); LF(r) R[d->rd] = r; SANVP_NEXT(d->cyc) } \
  SANVP_CASE(kOr##SUF) : { const std::uint32_t r = R[d->rs1] | (B); LF(r) R[d->rd] = r; SANVP_NEXT(d->cyc) }  \
  SANVP_CASE(kXor##SUF) : { const std::uint32_t r = R[d->rs1] ^ (B); LF(r) R[d->rd] = r; SANVP_NEXT(d->cyc) } \
  SANVP_CASE(kSh##SUF) : {                                                                                \
    R[d->rd] = alu::shift(R[d->rs1], static_cast<std::int32_t>(B), false, (F));                           \
    SANVP_NEXT(d->cyc)                                                                                    \
  }                                                                                                       \
  SANVP_CASE(kSha##SUF) : {                                                                               \
    R[d->rd] = alu::shift(R[d->rs1], static_cast<std::int32_t>(B), true, (F));                            \
    SANVP_NEXT(d->cyc)                                                                                    \
  }
#define SANVP_LF_NONE(r)
#define SANVP_LF_RI(r) alu::nz(s.f, r); s.f.v = false; s.f.c = false;
#define SANVP_LF_RR(r) alu::nz(s.f, r); s.f.v = false;
#define SANVP_BR(N, COND)                            \
  SANVP_CASE(kBr##N) : {                             \
    const Flags& f = s.f;                            \
    (void)f;                                         \
    if (COND) {                                      \
      jump_after(s, 1, d->imm);                      \
      SANVP_NEXT(d->cyc + env.taken_extra)           \
    }                                                \
    SANVP_NEXT(d->cyc)                               \
  }
  // Memory: K the modified address, EA the accessed one, WB the write-back, CHK the stack guard
  // (write-back forms may move sp; the others never write sp, see fast_op).
#define SANVP_K_OFF (base + d->imm)
#define SANVP_K_RR (base + R[d->rs2])
#define SANVP_WB_NONE
#define SANVP_WB_SET R[d->wb] = k;
#define SANVP_CHK_NONE
#define SANVP_CHK_SET if (d->writes_sp) { SANVP_SP_CHECK() }
  // As in execute(): a load writes its base back before its destination (rd == base: rd wins).
#define SANVP_LD(NAME, W, ZEXT, READ, K, EA, WB, CHK)                               \
  SANVP_CASE(NAME) : {                                                           \
    const std::uint32_t base = R[d->rs1], k = K, ea = EA;                        \
    (void)k;                                                                     \
    const std::uint32_t off = ea - dm.lo;                                        \
    constexpr std::uint32_t kAlign = static_cast<std::uint32_t>(W) - 1;          \
    if (__builtin_expect((ea & kAlign) == 0 && off < dm.len, 1)) {               \
      const std::uint8_t* const p = dm.host + off;                               \
      const std::uint32_t v = READ;                                              \
      WB R[d->rd] = v;                                                           \
      CHK SANVP_NEXT(d->cyc)                                                     \
    }                                                                            \
    SANVP_EXPOSE()                                                               \
    const std::uint32_t v = env.load(s, ea, W, ZEXT);                            \
    WB R[d->rd] = v;                                                             \
    CHK SANVP_NEXT_CHECKED(d->cyc)                                               \
  }
#define SANVP_ST(NAME, W, WRITE, K, EA, WB, CHK)                                               \
  SANVP_CASE(NAME) : {                                                                      \
    const std::uint32_t base = R[d->rs1], k = K, ea = EA, v = R[d->rd];                     \
    (void)k;                                                                                \
    const std::uint32_t off = ea - dm.lo;                                                   \
    constexpr std::uint32_t kAlign = static_cast<std::uint32_t>(W) - 1;                     \
    if (__builtin_expect((ea & kAlign) == 0 && off < dm.len && ea - dm.code_lo >= dm.code_len, 1)) { \
      WRITE(dm.host + off, v);                                                              \
      WB CHK SANVP_NEXT(d->cyc)                                                             \
    }                                                                                       \
    SANVP_EXPOSE()                                                                          \
    env.store(s, ea, W, v);                                                                 \
    WB CHK SANVP_NEXT_CHECKED(d->cyc)                                                       \
  }
#define SANVP_RD_W direct::ld32(p)
#define SANVP_RD_H static_cast<std::uint32_t>(static_cast<std::int16_t>(direct::ld16(p)))
#define SANVP_RD_HU direct::ld16(p)
#define SANVP_RD_B static_cast<std::uint32_t>(static_cast<std::int8_t>(p[0]))
#define SANVP_RD_BU std::uint32_t{p[0]}
  // One addressing form: five loads and three stores.
#define SANVP_MEM8(FORM, K, EA, WB, CHK)                                               \
  SANVP_LD(kLdW##FORM, Width::kWord, false, SANVP_RD_W, K, EA, WB, CHK)                \
  SANVP_LD(kLdH##FORM, Width::kHalf, false, SANVP_RD_H, K, EA, WB, CHK)                \
  SANVP_LD(kLdHu##FORM, Width::kHalf, true, SANVP_RD_HU, K, EA, WB, CHK)               \
  SANVP_LD(kLdB##FORM, Width::kByte, false, SANVP_RD_B, K, EA, WB, CHK)                \
  SANVP_LD(kLdBu##FORM, Width::kByte, true, SANVP_RD_BU, K, EA, WB, CHK)               \
  SANVP_ST(kStW##FORM, Width::kWord, direct::st32, K, EA, WB, CHK)                     \
  SANVP_ST(kStH##FORM, Width::kHalf, direct::st16, K, EA, WB, CHK)                     \
  SANVP_ST(kStB##FORM, Width::kByte, direct::st8, K, EA, WB, CHK)

  // The DMI window changes only while other processes run: inside an access through the
  // environment (after which it is read again) or between calls.
  DirectMem dm = env.direct_mem();
  bool stale_dm = false;
  while (cycles < s.budget) {
    SANVP_SYNC();
    const BlockRef b = env.block(s, s.pc);
    if (!b.insns) break;
    if (stale_dm) {
      dm = env.direct_mem();
      stale_dm = false;
    }
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
      SANVP_EXPOSE()
      const std::uint64_t c = execute(s, env, *d, pc);
      SANVP_NEXT_CHECKED(c)
    }
    SANVP_ALU9(I, d->imm, nullptr, SANVP_LF_NONE)
    SANVP_ALU9(IF, d->imm, &s.f, SANVP_LF_RI)
    SANVP_ALU9(R, R[d->rs2], nullptr, SANVP_LF_NONE)
    SANVP_ALU9(RF, R[d->rs2], &s.f, SANVP_LF_RR)
    SANVP_CASE(kPredR) : {
      if (cond_holds(d->cc, s.f)) R[d->rd] = alu::op(d->alu, R[d->rs1], R[d->rs2], s.f, false);
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kSel) : { R[d->rd] = cond_holds(d->cc, s.f) ? R[d->rs1] : R[d->rs2]; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kScc) : { R[d->rd] = cond_holds(d->cc, s.f) ? 1u : 0u; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kPopc) : {
      R[d->rd] = static_cast<std::uint32_t>(__builtin_popcount(R[d->rs1]));
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kLeadz) : {
      const std::uint32_t a = R[d->rs1];
      R[d->rd] = a ? static_cast<std::uint32_t>(__builtin_clz(a)) : 32u;
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kTrailz) : {
      const std::uint32_t a = R[d->rs1];
      R[d->rd] = a ? static_cast<std::uint32_t>(__builtin_ctz(a)) : 32u;
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kSli) : { R[d->rd] = d->imm; SANVP_NEXT(d->cyc) }
    SANVP_CASE(kAddISp) : {
      R[d->rd] = R[d->rs1] + d->imm;
      SANVP_SP_CHECK()
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kSubISp) : {
      R[d->rd] = R[d->rs1] - d->imm;
      SANVP_SP_CHECK()
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kAddPcI) : { R[d->rd] = pc + d->imm; SANVP_NEXT(d->cyc) }
    SANVP_BR(0, true)
    SANVP_BR(1, false)
    SANVP_BR(2, f.c && !f.z)
    SANVP_BR(3, !f.c || f.z)
    SANVP_BR(4, !f.c)
    SANVP_BR(5, f.c)
    SANVP_BR(6, !f.z)
    SANVP_BR(7, f.z)
    SANVP_BR(8, !f.v)
    SANVP_BR(9, f.v)
    SANVP_BR(10, !f.n)
    SANVP_BR(11, f.n)
    SANVP_BR(12, f.n == f.v)
    SANVP_BR(13, f.n != f.v)
    SANVP_BR(14, !f.z && f.n == f.v)
    SANVP_BR(15, f.z || f.n != f.v)
    SANVP_CASE(kJmpR) : {
      jump_after(s, 1, alu::op(d->alu, R[d->rs1], R[d->rs2], s.f, false));
      SANVP_NEXT(d->cyc)
    }
    SANVP_CASE(kLdWPc) : {
      const std::uint32_t ea = R[d->rs1] + d->imm, off = ea - dm.lo;
      if (__builtin_expect((ea & 3u) == 0 && off < dm.len, 1)) {
        jump_after(s, 2, direct::ld32(dm.host + off));
        SANVP_NEXT(d->cyc)
      }
      SANVP_EXPOSE()
      jump_after(s, 2, env.load(s, ea, Width::kWord, false));
      SANVP_NEXT_CHECKED(d->cyc)
    }
    SANVP_MEM8(Off, SANVP_K_OFF, k, SANVP_WB_NONE, SANVP_CHK_NONE)
    SANVP_MEM8(Pre, SANVP_K_OFF, k, SANVP_WB_SET, SANVP_CHK_SET)
    SANVP_MEM8(Post, SANVP_K_OFF, base, SANVP_WB_SET, SANVP_CHK_SET)
    SANVP_MEM8(RR, SANVP_K_RR, k, SANVP_WB_NONE, SANVP_CHK_NONE)
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
#undef SANVP_EXPOSE
#undef SANVP_SP_CHECK
#undef SANVP_ALU9
#undef SANVP_LF_NONE
#undef SANVP_LF_RI
#undef SANVP_LF_RR
#undef SANVP_BR
#undef SANVP_K_OFF
#undef SANVP_K_RR
#undef SANVP_WB_NONE
#undef SANVP_WB_SET
#undef SANVP_CHK_NONE
#undef SANVP_CHK_SET
#undef SANVP_LD
#undef SANVP_ST
#undef SANVP_RD_W
#undef SANVP_RD_H
#undef SANVP_RD_HU
#undef SANVP_RD_B
#undef SANVP_RD_BU
#undef SANVP_MEM8
}

#undef SANVP_ISS_HOT

}  // namespace sanvp::lanai
