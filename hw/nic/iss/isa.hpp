// Lanai instruction set as LLVM 14 emits it (see /work/shared/lanai-isa.md and LLVM's
// llvm/lib/Target/Lanai/). Pure data and bit twiddling: no SystemC, usable by the ISS, the
// disassembler, the linker and the tests alike.
#pragma once
#include <cstdint>

namespace sanvp::lanai {

// Register numbers with an ABI role.
enum Reg : std::uint8_t { kR0 = 0, kR1 = 1, kPc = 2, kSp = 4, kFp = 5, kRv = 8, kRca = 15 };

// Condition codes: cc = DDD*2 + I (section 3.8 of the ISA notes).
enum Cond : std::uint8_t {
  kT = 0, kF, kUgt, kUle, kUlt, kUge, kNe, kEq, kVc, kVs, kPl, kMi, kGe, kLt, kGt, kLe
};

struct Flags {
  bool n = false, z = false, v = false, c = false;
};

inline bool cond_holds(unsigned cc, const Flags& f) {
  switch (cc & 15) {
    case kT: return true;
    case kF: return false;
    case kUgt: return f.c && !f.z;
    case kUle: return !f.c || f.z;
    case kUlt: return !f.c;
    case kUge: return f.c;
    case kNe: return !f.z;
    case kEq: return f.z;
    case kVc: return !f.v;
    case kVs: return f.v;
    case kPl: return !f.n;
    case kMi: return f.n;
    case kGe: return f.n == f.v;
    case kLt: return f.n != f.v;
    case kGt: return !f.z && f.n == f.v;
    default: return f.z || f.n != f.v;  // kLe
  }
}

// ALU operation codes (AAA in RI, BBB in RR/RRM).
enum Alu : std::uint8_t { kAdd = 0, kAddc, kSub, kSubb, kAnd, kOr, kXor, kShift };

// Executable operation kinds after predecoding. One kind per distinct behaviour so the
// executor's switch does the least work per instruction.
enum class Op : std::uint8_t {
  kIllegal,
  // ALU results go to a GPR (never pc); `b` is the immediate (RI) or rs2 (RR, predicated).
  kAddRI, kAddcRI, kSubRI, kSubbRI, kAndRI, kOrRI, kXorRI, kShRI, kShaRI,
  kAddRR, kAddcRR, kSubRR, kSubbRR, kAndRR, kOrRR, kXorRR, kShRR, kShaRR,
  kSel,
  kAluToPc,  // any RI/RR/SELECT/SCC form whose destination is pc (jump, 1 delay slot)
  kPopc, kLeadz, kTrailz,
  kScc,
  kBr,       // conditional absolute branch, 1 delay slot
  kBrr,      // pc-relative branch (never emitted by LLVM 14; executed as documented)
  // Memory. `mode` says how the address is formed and what is written back.
  kLoad, kStore,
  kSli,      // mov const21, rd
};

// Address modes shared by RM, RRM and SPLS (P/Q bits), plus SLS absolute.
enum class AddrMode : std::uint8_t {
  kBase,     // PQ=00: ea = rs1
  kPost,     // PQ=01: ea = rs1; rs1 = rs1 op k
  kOffset,   // PQ=10: ea = rs1 op k
  kPre,      // PQ=11: ea = rs1 op k; rs1 = ea
  kAbsolute  // SLS: ea = imm
};

enum class Width : std::uint8_t { kWord = 4, kHalf = 2, kByte = 1 };

// Cycle-model classes (the core maps each to a configurable cycle count).
enum class CycleClass : std::uint8_t { kAlu, kLoad, kStore, kBranch, kJump, kLoadPc, kCount };

// Handlers of the block engine (threaded.hpp): every common form gets a specialised handler
// with its operands pre-extracted, the rest runs through the generic execute(). Chosen by
// decode(), see fast_op(). One list feeds the enum and the engine's handler table.
//   ALU, 9 ops each in Op order (add addc sub subb and or xor sh sha): RI, RI .f, RR, RR .f
//   (RR unpredicated); rd != sp, no operand is pc.
//   Memory, per addressing form (Off = rs1 + imm incl. base and SLS absolute, Pre, Post,
//   RR = rs1 add rs2): loads W H Hu B Bu, then stores W H B.
#define SANVP_FAST_LIST(X)                                                                                  \
  X(kGeneric)                                                                                               \
  X(kAddI) X(kAddcI) X(kSubI) X(kSubbI) X(kAndI) X(kOrI) X(kXorI) X(kShI) X(kShaI)                          \
  X(kAddIF) X(kAddcIF) X(kSubIF) X(kSubbIF) X(kAndIF) X(kOrIF) X(kXorIF) X(kShIF) X(kShaIF)                 \
  X(kAddR) X(kAddcR) X(kSubR) X(kSubbR) X(kAndR) X(kOrR) X(kXorR) X(kShR) X(kShaR)                          \
  X(kAddRF) X(kAddcRF) X(kSubRF) X(kSubbRF) X(kAndRF) X(kOrRF) X(kXorRF) X(kShRF) X(kShaRF)                 \
  X(kPredR) /* predicated RR without .f */                                                                  \
  X(kSel) X(kScc) X(kPopc) X(kLeadz) X(kTrailz) X(kSli)                                                     \
  X(kAddISp) X(kSubISp) /* RI add/sub into sp: stack guard */                                               \
  X(kAddPcI) /* add %pc, imm, rd: the call idiom */                                                         \
  X(kBr0) X(kBr1) X(kBr2) X(kBr3) X(kBr4) X(kBr5) X(kBr6) X(kBr7)                                            \
  X(kBr8) X(kBr9) X(kBr10) X(kBr11) X(kBr12) X(kBr13) X(kBr14) X(kBr15) /* b<cc>, by cc */                  \
  X(kJmpR) /* unpredicated RR op into pc without .f: bt %rX, mov %rX, %pc */                                \
  X(kLdWPc) /* ld off[rs1], %pc: return */                                                                  \
  X(kLdWOff) X(kLdHOff) X(kLdHuOff) X(kLdBOff) X(kLdBuOff) X(kStWOff) X(kStHOff) X(kStBOff)                 \
  X(kLdWPre) X(kLdHPre) X(kLdHuPre) X(kLdBPre) X(kLdBuPre) X(kStWPre) X(kStHPre) X(kStBPre)                 \
  X(kLdWPost) X(kLdHPost) X(kLdHuPost) X(kLdBPost) X(kLdBuPost) X(kStWPost) X(kStHPost) X(kStBPost)         \
  X(kLdWRR) X(kLdHRR) X(kLdHuRR) X(kLdBRR) X(kLdBuRR) X(kStWRR) X(kStHRR) X(kStBRR)                         \
  /* a compare (sub.f RR / RI) and the conditional branch after it, by the branch's cc: pair_op */           \
  X(kCmpRBr0) X(kCmpRBr1) X(kCmpRBr2) X(kCmpRBr3) X(kCmpRBr4) X(kCmpRBr5) X(kCmpRBr6) X(kCmpRBr7)            \
  X(kCmpRBr8) X(kCmpRBr9) X(kCmpRBr10) X(kCmpRBr11) X(kCmpRBr12) X(kCmpRBr13) X(kCmpRBr14) X(kCmpRBr15)      \
  X(kCmpIBr0) X(kCmpIBr1) X(kCmpIBr2) X(kCmpIBr3) X(kCmpIBr4) X(kCmpIBr5) X(kCmpIBr6) X(kCmpIBr7)            \
  X(kCmpIBr8) X(kCmpIBr9) X(kCmpIBr10) X(kCmpIBr11) X(kCmpIBr12) X(kCmpIBr13) X(kCmpIBr14) X(kCmpIBr15)     \
  /* an address computed and a word loaded (add RR/RI, ld off), a scaled index added (sh RI, add RR) */      \
  X(kAddRLdW) X(kAddILdW) X(kShIAddR)

enum class Fast : std::uint8_t {
#define SANVP_FAST_ENUM(N) N,
  SANVP_FAST_LIST(SANVP_FAST_ENUM)
#undef SANVP_FAST_ENUM
  kCount
};

// Register-file slot that absorbs writes to r0 and r1.
inline constexpr std::uint8_t kDiscard = 32;

struct Insn {
  std::uint32_t raw = 0;
  std::uint32_t imm = 0;    // RI constant K, memory offset (sign-extended), SLS address, branch target
  Op op = Op::kIllegal;
  std::uint8_t rd = 0;      // destination; r0/r1 map to the discard slot kDiscard
  std::uint8_t rs1 = 0;
  std::uint8_t rs2 = 0;
  std::uint8_t wb = kDiscard;  // write-back register of pre/post-modify addressing
  std::uint8_t cc = 0;      // predicate / branch condition
  std::uint8_t alu = 0;     // Alu op for kAluToPc and RRM address arithmetic
  bool setf = false;        // .f
  bool rrm = false;         // memory address uses rs1 <alu> rs2 instead of rs1 + imm
  bool zext = false;        // loads: zero-extend (uld)
  AddrMode mode = AddrMode::kBase;
  Width width = Width::kWord;
  CycleClass cls = CycleClass::kAlu;
  bool writes_sp = false;   // destination (or write-back base) is sp: stack-guard check
  bool to_pc = false;       // loads into pc (2 delay slots)
  std::uint8_t cyc = 1;     // cycles, filled in by the core's decode cache from its cycle model
  Fast xop = Fast::kGeneric;  // block-engine handler
  // Block engine only (set by its environment, see threaded.hpp): cycles of the instructions
  // from some earlier point up to and including this one (only differences within a block
  // count), and this word's address. The engine derives the counters and pcs from them
  // instead of counting per instruction.
  std::uint16_t cum = 0;
  std::uint32_t pc = 0;
};
// 32 bytes: the block engine subtracts Insn pointers (instructions retired in a block).
static_assert(sizeof(Insn) == 32, "Insn is meant to stay a power of two in size");

// A predecoded straight-line run of instructions for the block engine (threaded.hpp): it ends
// after the delay slots of the first transfer that is not a conditional branch, or earlier at
// a page end. `max_cycles` assumes every branch in it taken. Its Insns carry `cum` and `pc`.
struct BlockRef {
  const Insn* insns = nullptr;
  std::uint32_t len = 0;
  std::uint64_t max_cycles = 0;
};

// The host window the block engine loads and stores through directly (DMI): [lo, lo + len)
// at `host`; stores into [code_lo, code_lo + code_len) must still go through the environment
// (self-modifying code). len == 0: no direct access.
struct DirectMem {
  std::uint8_t* host = nullptr;
  std::uint32_t lo = 0, len = 0;
  std::uint32_t code_lo = 0, code_len = 0;
};

Insn decode(std::uint32_t word);
// The block-engine handler for a decoded instruction (decode() fills Insn::xop with it).
Fast fast_op(const Insn& d);
// The handler for `a` when `b` follows it in a block: one handler for both (it runs b too
// unless the block ends at a) for a compare and the conditional branch after it and for the
// pairs the compiler emits most (kAddRLdW, kAddILdW, kShIAddR), else fast_op(a).
// Whoever builds blocks sets it on every word but a block's last possible one (the core: the
// last of a page), and again whenever either word changes.
Fast pair_op(const Insn& a, const Insn& b);

inline std::int32_t sext(std::uint32_t v, unsigned bits) {
  const std::uint32_t m = 1u << (bits - 1);
  v &= (bits == 32) ? ~0u : ((1u << bits) - 1);
  return static_cast<std::int32_t>((v ^ m) - m);
}

}  // namespace sanvp::lanai
