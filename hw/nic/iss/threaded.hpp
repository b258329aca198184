// The block engine: the core's fast path. Runs predecoded basic blocks with threaded dispatch
// (one indirect jump per instruction through a table of handler addresses, GCC/Clang computed
// goto; define SANVP_ISS_SWITCH for a portable switch instead).
//
// Exactly the semantics of run() in executor.hpp, instruction for instruction: the delay-slot
// queue changes as there, and r2, the pc history and the cycle and instruction counters, which
// follow from the position in the block (see run_blocks), are written back as run() would
// have left them wherever they can be seen, so loads, stores and faults see the same state at
// the same cycle. What moves is the budget test: a block runs without it only when even its
// slowest path (every branch taken) ends before the budget; otherwise only as far as it
// certainly runs (fitting), and the rest after a new test. A load or store may end the slice early (a target called
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
//                                            // block engine now (the caller falls back to run());
//                                            // Insn::cum and Insn::pc set (see isa.hpp)
//   bool leave_block;                        // set by an access that invalidated code
//   DirectMem direct_mem();                  // read at the start and again after any access
//                                            // through the environment (only then can it change)
//   const Insn* chain(uint32_t pc, uint32_t& len, uint64_t& max_cycles);
//                                            // the block at pc if it is built and valid (len and
//                                            // max_cycles set), else nullptr
//   bool next_slice(CpuState&, uint64_t cycles);  // the slice ended at `cycles` on the chain
//                                            // path: true to run on (s.budget set beyond cycles),
//                                            // false to return (the caller's slice end)
//
// Chaining: a block left without an access through the environment goes straight on into the
// next one through chain(), without the slow path's lookup, build, fault handling and state
// write-back; a block the slice may end in is entered as far as it certainly runs (fitting), as
// on the slow path. Near a slice's end that is several short entries, each of which used to take
// the slow path. A slice that ends there is followed by the next one without leaving the
// engine when next_slice allows it (the core's run_thread would have started that slice at
// once, with nothing looking at the state in between).
// Nothing can have dropped blocks or changed the DMI window then (both happen only inside such
// an access), and chain() returns only a block that is built now: a block dropped by a code
// write (core store, DMA, PCI) is never entered through a chain; its pc takes the slow path,
// which rebuilds it from memory.
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
// the per-handler indirect jumps back into one badly predicted jump. Its SLP vectorizer
// merges the delay-slot queue's word moves into 8-byte loads that straddle the word stores
// just made, which cannot be forwarded (the load waits for the stores to retire).
#if SANVP_ISS_THREADED && defined(__GNUC__) && !defined(__clang__)
#define SANVP_ISS_HOT __attribute__((optimize("no-crossjumping", "no-gcse", "no-tree-slp-vectorize")))
#else
#define SANVP_ISS_HOT
#endif

// What the block engine ran since it last wrote the state back: one entry per run of
// consecutive instructions (a block, or what is left of one after an access through the
// environment) instead of a pc history store and an r2 store per instruction. Written into
// CpuState only where the state can be looked at: before an access through the environment or
// a fault, between blocks on the slow path, on return.
struct Runs {
  const Insn* first[16];
  const Insn* last[16];  // last < first: an empty run
  std::uint32_t n = 0;   // runs since the last flush (only the newest 16 are kept)
  void add(const Insn* a, const Insn* b) {
    first[n & 15u] = a;
    last[n & 15u] = b;
    ++n;
  }
  // s.hist_n already counts the recorded pcs; the newest 16 of them go into the slots before
  // it, as the one-instruction loop would have written them. 16 runs hold at least 16 pcs
  // (only the first run after a flush can be empty), so older runs are never needed. r2 holds
  // the pc of the last instruction started, as run() leaves it.
  void flush(CpuState& s) {
    if (n == 0) return;
    s.r[kPc] = last[(n - 1) & 15u]->pc;
    std::uint32_t h = s.hist_n, left = 16;
    for (std::uint32_t i = n; i != 0 && n - i < 16 && left != 0; --i) {
      const Insn* const a = first[(i - 1) & 15u];
      for (std::ptrdiff_t k = last[(i - 1) & 15u] - a; k >= 0 && left != 0; --k, --left) s.hist[--h & 15u] = a[k].pc;
    }
    n = 0;
  }
};

// How many instructions from the start of block b run before `room` cycles are used up even
// if every branch among them is taken: run() starts each of them (at least the first).
inline std::uint32_t fitting(const BlockRef& b, std::uint64_t room, std::uint64_t taken_extra) {
  std::uint64_t worst = 0;  // cycles before instruction j on the slowest path
  std::uint32_t j = 0;
  while (j < b.len && worst < room) {
    worst += b.insns[j].cyc + (b.insns[j].op == Op::kBr ? taken_extra : 0);
    ++j;
  }
  return j;
}

// Runs until s.cycles >= s.budget or the environment has no block for the pc. One function
// (well over 80 lines) because computed goto cannot leave it.
template <class Env>
SANVP_ISS_HOT void run_blocks(CpuState& s, Env& env) {
  std::uint32_t* const R = s.r.data();
  // Nothing is counted per instruction. In a block, with d the current instruction and d0 the
  // block's first: the cycles after d are cb + d->cum (cb absorbs the block's start, taken
  // branches and the generic handler's extra cycles), the instructions retired before d are
  // instret + (d - d0), its pc is d->pc, and the pc history is the run [hd, d]. The state is
  // written back from these before anything can look at it (a load or store through the
  // environment may reach a device that reads the core's time; faults report it) and when
  // the block is left. hist_n runs ahead of instret by a fixed offset (one more once an
  // instruction faulted).
  std::uint64_t cycles = s.cycles, instret = s.instret, cb = 0;
  const std::uint32_t hoff = s.hist_n - static_cast<std::uint32_t>(s.instret);
  Runs runs;
  const Insn *d = nullptr, *d0 = nullptr, *dl = nullptr, *hd = nullptr;  // dl: the block's last
  std::uint32_t next = 0;  // the pc after the block
#define SANVP_SYNC()                                            \
  s.cycles = cycles;                                            \
  s.instret = instret;                                          \
  s.hist_n = static_cast<std::uint32_t>(instret) + hoff;        \
  runs.flush(s);
#if SANVP_ISS_THREADED
  // Two handler tables: kPlain's handlers skip the delay-slot queue test after instructions
  // that cannot transfer control. They run while no jump is pending: from a block's entry with
  // an empty queue up to its first transfer, after which (the rest are delay slots) and from
  // an entry with a jump pending the block dispatches through kQueued, which tests everywhere.
#define SANVP_LABEL_P(N) &&L_P_##N,
#define SANVP_LABEL_Q(N) &&L_Q_##N,
  static const void* const kPlain[] = {SANVP_FAST_LIST(SANVP_LABEL_P)};
  static const void* const kQueued[] = {SANVP_FAST_LIST(SANVP_LABEL_Q)};
#undef SANVP_LABEL_P
#undef SANVP_LABEL_Q
  static_assert(sizeof kPlain / sizeof kPlain[0] == static_cast<unsigned>(Fast::kCount));
  const void* const* tbl = kPlain;
#define SANVP_DISPATCH() goto* tbl[static_cast<unsigned>(d->xop)]
#define SANVP_PASTE3_(A, B, C) A##B##C
#define SANVP_PASTE3(A, B, C) SANVP_PASTE3_(A, B, C)
#define SANVP_CASE(X) SANVP_PASTE3(L_, SANVP_V, X)
#define SANVP_QUEUED() tbl = kQueued;
#define SANVP_PICK_TABLE() tbl = s.qmask ? kQueued : kPlain;
#else
#define SANVP_DISPATCH() goto dispatch
#define SANVP_CASE(X) case Fast::X
#define SANVP_QUEUED()
#define SANVP_PICK_TABLE()
#endif
// Enters the LEN instructions from FIRST (the cycles so far in `cycles`).
#define SANVP_BEGIN(FIRST, LEN)             \
  d = d0 = hd = (FIRST);                    \
  dl = d + ((LEN) - 1);                     \
  cb = cycles + d->cyc - d->cum;            \
  SANVP_PICK_TABLE()                        \
  SANVP_DISPATCH();
// r2 is written (from the runs, with the pc history) only where it can be read or seen: by the
// generic handler (the specialised ones never read r2, see fast_op), before accesses through
// the environment (which may fault or let other processes look), before a fault and between
// blocks on the slow path, so the state is always as run() leaves it.
  // End of an instruction: the delay-slot queue exactly as run() does it (a redirected pc ends
  // the block); SANVP_VTEST() is the queue test in the kQueued handlers and nothing in the
  // kPlain ones, where the queue is empty. Transfers (_T) always test.
#define SANVP_QTEST()                                  \
  if (__builtin_expect(s.qmask != 0, 0)) {             \
    const bool jump = s.qmask & 1u;                    \
    const std::uint32_t to = s.q[0];                   \
    s.q[0] = s.q[1];                                   \
    s.q[1] = s.q[2];                                   \
    s.qmask >>= 1;                                     \
    if (jump) {                                        \
      next = to;                                       \
      goto out;                                        \
    }                                                  \
  }
#define SANVP_STEP()          \
  if (d == dl) goto last;     \
  ++d;                        \
  SANVP_DISPATCH();
#define SANVP_NEXT() SANVP_VTEST() SANVP_STEP()
#define SANVP_NEXT_T() SANVP_QUEUED() SANVP_QTEST() SANVP_STEP()
#define SANVP_NEXT_CHECKED_(TEST)                                               \
  TEST()                                                                        \
  if (d == dl || env.leave_block || cb + d->cum >= s.budget) goto last;         \
  ++d;                                                                          \
  SANVP_DISPATCH();
#define SANVP_NEXT_CHECKED() SANVP_NEXT_CHECKED_(SANVP_VTEST)
#define SANVP_NEXT_CHECKED_T() SANVP_QUEUED() SANVP_NEXT_CHECKED_(SANVP_QTEST)
// Before anything that may look at the state: the environment, a fault. The instruction d has
// not retired; run() has already put its pc into the history.
#define SANVP_EXPOSE()                                                          \
  s.cycles = cb + d->cum - d->cyc;                                              \
  s.instret = instret + static_cast<std::uint64_t>(d - d0);                     \
  s.hist_n = static_cast<std::uint32_t>(s.instret) + hoff + 1;                  \
  runs.add(hd, d);                                                              \
  runs.flush(s); /* r2 too */                                                   \
  hd = d + 1;                                                                   \
  s.pc = d->pc;                                                                 \
  stale_dm = true;
#define SANVP_SP_CHECK()                                                 \
  if (__builtin_expect(R[kSp] < s.stack_limit, 0)) {                     \
    SANVP_EXPOSE()                                                       \
    stack_fault(d->pc, R[kSp]);                                          \
  }
  // ALU: the nine ops of one form; B the second operand, F the flags (nullptr: none), LF what a
  // logical op does to the flags.
#define SANVP_ALU9(SUF, B, F, LF)                                                                         \
  SANVP_CASE(kAdd##SUF) : { R[d->rd] = alu::add(R[d->rs1], (B), 0, (F)); SANVP_NEXT() }                  \
  SANVP_CASE(kAddc##SUF) : { R[d->rd] = alu::add(R[d->rs1], (B), s.f.c, (F)); SANVP_NEXT() }             \
  SANVP_CASE(kSub##SUF) : { R[d->rd] = alu::add(R[d->rs1], ~(B), 1, (F)); SANVP_NEXT() }                 \
  SANVP_CASE(kSubb##SUF) : { R[d->rd] = alu::add(R[d->rs1], ~(B), s.f.c, (F)); SANVP_NEXT() }            \
  SANVP_CASE(kAnd##SUF) : { const std::uint32_t r = R[d->rs1] & (B); LF(r) R[d->rd] = r; SANVP_NEXT() } \
  SANVP_CASE(kOr##SUF) : { const std::uint32_t r = R[d->rs1] | (B); LF(r) R[d->rd] = r; SANVP_NEXT() }  \
  SANVP_CASE(kXor##SUF) : { const std::uint32_t r = R[d->rs1] ^ (B); LF(r) R[d->rd] = r; SANVP_NEXT() } \
  SANVP_CASE(kSh##SUF) : {                                                                                \
    R[d->rd] = alu::shift(R[d->rs1], static_cast<std::int32_t>(B), false, (F));                           \
    SANVP_NEXT()                                                                                          \
  }                                                                                                       \
  SANVP_CASE(kSha##SUF) : {                                                                               \
    R[d->rd] = alu::shift(R[d->rs1], static_cast<std::int32_t>(B), true, (F));                            \
    SANVP_NEXT()                                                                                          \
  }
#define SANVP_LF_NONE(r)
#define SANVP_LF_RI(r) alu::nz(s.f, r); s.f.v = false; s.f.c = false;
#define SANVP_LF_RR(r) alu::nz(s.f, r); s.f.v = false;
  // Branches by cc (N) and condition on the flags f.
#define SANVP_CONDS(X)                                                                            \
  X(0, true) X(1, false) X(2, f.c && !f.z) X(3, !f.c || f.z) X(4, !f.c) X(5, f.c) X(6, !f.z)      \
  X(7, f.z) X(8, !f.v) X(9, f.v) X(10, !f.n) X(11, f.n) X(12, f.n == f.v) X(13, f.n != f.v)        \
  X(14, !f.z && f.n == f.v) X(15, f.z || f.n != f.v)
#define SANVP_BR_BODY(COND)                          \
  {                                                  \
    const Flags& f = s.f;                            \
    (void)f;                                         \
    if (COND) {                                      \
      jump_after(s, 1, d->imm);                      \
      cb += env.taken_extra;                         \
      SANVP_NEXT_T()                                 \
    }                                                \
    SANVP_NEXT()                                     \
  }
#define SANVP_BR(N, COND) SANVP_CASE(kBr##N) : SANVP_BR_BODY(COND)
  // Between the two instructions of a pair (pair_op): the queue test after the first, and the
  // block's end if it ends there.
#define SANVP_PAIR_NEXT() \
  SANVP_VTEST()           \
  if (d == dl) goto last; \
  ++d;
  // A compare and the branch after it (pair_op): the compare, the queue test after it, and the
  // branch as its own handler would run it, unless the block ends at the compare.
#define SANVP_CMPBR(N, COND)                                                  \
  SANVP_CASE(kCmpRBr##N) : {                                                  \
    R[d->rd] = alu::add(R[d->rs1], ~R[d->rs2], 1, &s.f);                      \
    SANVP_PAIR_NEXT()                                                         \
    SANVP_BR_BODY(COND)                                                       \
  }                                                                           \
  SANVP_CASE(kCmpIBr##N) : {                                                  \
    R[d->rd] = alu::add(R[d->rs1], ~d->imm, 1, &s.f);                         \
    SANVP_PAIR_NEXT()                                                         \
    SANVP_BR_BODY(COND)                                                       \
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
#define SANVP_LD(NAME, W, ZEXT, READ, K, EA, WB, CHK) SANVP_CASE(NAME) : SANVP_LD_BODY(W, ZEXT, READ, K, EA, WB, CHK)
#define SANVP_LD_BODY(W, ZEXT, READ, K, EA, WB, CHK)                                 \
  {                                                                              \
    const std::uint32_t base = R[d->rs1], k = K, ea = EA;                        \
    (void)k;                                                                     \
    const std::uint32_t off = ea - dm.lo;                                        \
    constexpr std::uint32_t kAlign = static_cast<std::uint32_t>(W) - 1;          \
    if (__builtin_expect((ea & kAlign) == 0 && off < dm.len, 1)) {               \
      const std::uint8_t* const p = dm.host + off;                               \
      const std::uint32_t v = READ;                                              \
      WB R[d->rd] = v;                                                           \
      CHK SANVP_NEXT()                                                           \
    }                                                                            \
    SANVP_EXPOSE()                                                               \
    const std::uint32_t v = env.load(s, ea, W, ZEXT);                            \
    WB R[d->rd] = v;                                                             \
    CHK SANVP_NEXT_CHECKED()                                                     \
  }
#define SANVP_ST(NAME, W, WRITE, K, EA, WB, CHK)                                               \
  SANVP_CASE(NAME) : {                                                                      \
    const std::uint32_t base = R[d->rs1], k = K, ea = EA, v = R[d->rd];                     \
    (void)k;                                                                                \
    const std::uint32_t off = ea - dm.lo;                                                   \
    constexpr std::uint32_t kAlign = static_cast<std::uint32_t>(W) - 1;                     \
    if (__builtin_expect((ea & kAlign) == 0 && off < dm.len && ea - dm.code_lo >= dm.code_len, 1)) { \
      WRITE(dm.host + off, v);                                                              \
      WB CHK SANVP_NEXT()                                                                   \
    }                                                                                       \
    SANVP_EXPOSE()                                                                          \
    env.store(s, ea, W, v);                                                                 \
    WB CHK SANVP_NEXT_CHECKED()                                                             \
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
    SANVP_SYNC()
    const BlockRef b = env.block(s, s.pc);
    if (!b.insns) break;
    if (stale_dm) {
      dm = env.direct_mem();
      stale_dm = false;
    }
    env.leave_block = false;
    // The slice may end inside this block: only as far as certainly runs (the rest next round).
    SANVP_BEGIN(b.insns, cycles + b.max_cycles < s.budget ? b.len : fitting(b, s.budget - cycles, env.taken_extra))
#if SANVP_ISS_THREADED
#define SANVP_V P_
#define SANVP_VTEST()
#include "hw/nic/iss/threaded_handlers.inc"
#undef SANVP_V
#undef SANVP_VTEST
#define SANVP_V Q_
#define SANVP_VTEST() SANVP_QTEST()
#include "hw/nic/iss/threaded_handlers.inc"
#undef SANVP_V
#undef SANVP_VTEST
#else
  dispatch:
    switch (d->xop) {
#define SANVP_VTEST() SANVP_QTEST()
#include "hw/nic/iss/threaded_handlers.inc"
#undef SANVP_VTEST
      default: break;
    }
#endif
  last:  // left after a sequential instruction
    next = d->pc + 4;
  out:  // left after d (a jump has set next)
    cycles = cb + d->cum;
    instret += static_cast<std::uint64_t>(d - d0) + 1;
    runs.add(hd, d);
    if (!stale_dm) {
      std::uint32_t len;
      std::uint64_t max_cycles;
      if (const Insn* const first = env.chain(next, len, max_cycles)) {
        // The slice ended with the block just left: the next one begins here if the
        // environment lets the core run on (its budget then lies beyond `cycles`).
        if (cycles < s.budget || env.next_slice(s, cycles)) {
          if (cycles + max_cycles < s.budget) {
            SANVP_BEGIN(first, len)
          }
          // The slice ends in it: as far as it certainly runs.
          SANVP_BEGIN(first, fitting(BlockRef{first, len, max_cycles}, s.budget - cycles, env.taken_extra))
        }
      }
    }
    s.pc = next;
  }
  SANVP_SYNC()
#undef SANVP_SYNC
#undef SANVP_DISPATCH
#undef SANVP_CASE
#undef SANVP_BEGIN
#undef SANVP_STEP
#undef SANVP_NEXT
#undef SANVP_NEXT_CHECKED
#undef SANVP_NEXT_CHECKED_
#undef SANVP_NEXT_CHECKED_T
#undef SANVP_NEXT_T
#undef SANVP_QTEST
#undef SANVP_QUEUED
#undef SANVP_PICK_TABLE
#if SANVP_ISS_THREADED
#undef SANVP_PASTE3
#undef SANVP_PASTE3_
#endif
#undef SANVP_EXPOSE
#undef SANVP_SP_CHECK
#undef SANVP_ALU9
#undef SANVP_LF_NONE
#undef SANVP_LF_RI
#undef SANVP_LF_RR
#undef SANVP_BR
#undef SANVP_BR_BODY
#undef SANVP_CMPBR
#undef SANVP_CONDS
#undef SANVP_K_OFF
#undef SANVP_K_RR
#undef SANVP_WB_NONE
#undef SANVP_WB_SET
#undef SANVP_CHK_NONE
#undef SANVP_CHK_SET
#undef SANVP_LD
#undef SANVP_LD_BODY
#undef SANVP_PAIR_NEXT
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
