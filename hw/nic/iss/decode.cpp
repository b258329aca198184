// Predecoder: one 32-bit word -> Insn. Field layouts follow LanaiInstrFormats.td; see isa.hpp.
#include "hw/nic/iss/isa.hpp"

namespace sanvp::lanai {

namespace {

std::uint8_t dest(unsigned r) { return r <= 1 ? kDiscard : static_cast<std::uint8_t>(r); }

AddrMode pq_mode(unsigned pq) {
  switch (pq & 3) {
    case 0: return AddrMode::kBase;
    case 1: return AddrMode::kPost;
    case 2: return AddrMode::kOffset;
    default: return AddrMode::kPre;
  }
}

bool writes_back(AddrMode m) { return m == AddrMode::kPost || m == AddrMode::kPre; }

// Fills the register-destination fields of a memory instruction.
void finish_memory(Insn& d, unsigned rd, bool store) {
  d.cls = store ? CycleClass::kStore : CycleClass::kLoad;
  if (!store) {
    d.to_pc = rd == kPc;
    d.rd = dest(rd);
    if (d.to_pc) d.cls = CycleClass::kLoadPc;
  } else {
    d.rd = static_cast<std::uint8_t>(rd);  // stored register: r0/r1/pc read as usual
  }
  if (writes_back(d.mode)) {
    // Write-back into pc has no defined delay-slot behaviour: refuse it. r0/r1 absorb it.
    if (d.rs1 == kPc) { d.op = Op::kIllegal; return; }
    d.wb = dest(d.rs1);
    if (d.rs1 == kSp) d.writes_sp = true;
  }
  if (!store && rd == kSp) d.writes_sp = true;
}

void decode_ri(Insn& d, std::uint32_t w) {
  const unsigned aaa = (w >> 28) & 7, rd = (w >> 23) & 31;
  const bool h = (w >> 16) & 1;
  const std::uint32_t imm = w & 0xFFFF;
  d.setf = (w >> 17) & 1;
  d.alu = static_cast<std::uint8_t>(aaa);
  if (aaa == kShift) {
    d.imm = static_cast<std::uint32_t>(sext(imm, 16));
    d.op = h ? Op::kShaRI : Op::kShRI;
  } else if (aaa == kAnd) {
    d.imm = h ? ((imm << 16) | 0xFFFF) : (0xFFFF0000u | imm);
    d.op = Op::kAndRI;
  } else {
    d.imm = h ? (imm << 16) : imm;
    static constexpr Op ops[] = {Op::kAddRI, Op::kAddcRI, Op::kSubRI, Op::kSubbRI, Op::kIllegal, Op::kOrRI, Op::kXorRI};
    d.op = ops[aaa];
  }
  if (rd == kPc) {
    // For kAluToPc the RI/RR distinction is kept in `rrm` (false: b = imm).
    d.alu = static_cast<std::uint8_t>(aaa == kShift ? (h ? 8 : 7) : aaa);
    d.op = Op::kAluToPc;
    d.cls = CycleClass::kJump;
  }
  d.rd = dest(rd);
  d.writes_sp = rd == kSp;
}

void decode_rr(Insn& d, std::uint32_t w) {
  const unsigned rd = (w >> 23) & 31, bbb = (w >> 8) & 7, jjjjj = (w >> 3) & 31;
  d.setf = (w >> 17) & 1;
  d.rs2 = (w >> 11) & 31;
  d.cc = static_cast<std::uint8_t>(((w & 7) << 1) | ((w >> 16) & 1));
  unsigned alu = bbb;
  if (bbb != kShift && jjjjj != 0) return;  // illegal
  if (bbb == kShift) {
    if (jjjjj == 0 && d.setf) return;  // illegal
    if (jjjjj == 0) {
      d.op = Op::kSel;
      alu = 9;
    } else if (jjjjj == 0x10) {
      d.op = Op::kShRR;
      alu = 7;
    } else if (jjjjj == 0x18) {
      d.op = Op::kShaRR;
      alu = 8;
    } else {
      d.op = Op::kIllegal;
      return;
    }
  } else {
    static constexpr Op ops[] = {Op::kAddRR, Op::kAddcRR, Op::kSubRR, Op::kSubbRR, Op::kAndRR, Op::kOrRR, Op::kXorRR};
    d.op = ops[bbb];
  }
  d.alu = static_cast<std::uint8_t>(alu);
  d.rrm = true;
  if (rd == kPc) {
    d.op = Op::kAluToPc;
    d.cls = CycleClass::kJump;
  }
  d.rd = dest(rd);
  d.writes_sp = rd == kSp;
}

Insn decode_fields(std::uint32_t w) {
  Insn d;
  d.raw = w;
  d.rs1 = (w >> 18) & 31;
  const unsigned top = w >> 28;
  const unsigned rd = (w >> 23) & 31;
  if (top < 8) {
    decode_ri(d, w);
  } else if (top == 8 || top == 9) {  // RM
    const bool store = top == 9;
    d.op = store ? Op::kStore : Op::kLoad;
    d.mode = pq_mode((w >> 16) & 3);
    d.imm = static_cast<std::uint32_t>(sext(w & 0xFFFF, 16));
    d.width = Width::kWord;
    finish_memory(d, rd, store);
  } else if (top == 10 || top == 11) {  // RRM
    const bool store = top == 11;
    d.op = store ? Op::kStore : Op::kLoad;
    d.mode = pq_mode((w >> 16) & 3);
    d.rrm = true;
    d.rs2 = (w >> 11) & 31;
    const unsigned bbb = (w >> 8) & 7, jjjjj = (w >> 3) & 31, yl = (w >> 1) & 3;
    d.alu = static_cast<std::uint8_t>(bbb);
    // A shift as address operator is never emitted and LLVM cannot even print it; stores
    // have no extension mode.
    (void)jjjjj;
    if (bbb == kShift || yl == 3 || (store && (w & 1))) {
      d.op = Op::kIllegal;
      return d;
    }
    d.width = yl == 1 ? Width::kWord : (yl == 0 ? Width::kHalf : Width::kByte);
    d.zext = w & 1;
    finish_memory(d, rd, store);
  } else if (top == 12) {
    decode_rr(d, w);
  } else if (top == 13) {  // popc / leadz / trailz
    static constexpr Op ops[] = {Op::kIllegal, Op::kPopc, Op::kLeadz, Op::kTrailz};
    const unsigned op = w & 7;
    if ((w & 0x3FFF8) != 0 || op == 0 || op > 3) return d;  // the F bit is not decodable either
    d.op = ops[op];
    if (rd == kPc) { d.op = Op::kIllegal; return d; }  // never emitted: refuse rather than guess
    d.rd = dest(rd);
    d.writes_sp = rd == kSp;
  } else if (top == 14) {
    d.cc = static_cast<std::uint8_t>((((w >> 25) & 7) << 1) | (w & 1));
    if ((w & 2) == 0) {  // BR
      d.op = Op::kBr;
      d.imm = w & 0x01FFFFFC;
      d.cls = CycleClass::kBranch;
    } else if ((w >> 24) & 1) {  // BRR
      if ((w & 0x00FF0000) != 0) return d;
      d.op = Op::kBrr;
      d.imm = static_cast<std::uint32_t>(sext(w & 0xFFFC, 16));
      d.cls = CycleClass::kBranch;
    } else {  // SCC: the destination sits in the rs1 field
      if ((w & 0x0083FFFC) != 0) return d;
      const unsigned r = (w >> 18) & 31;
      d.op = Op::kScc;
      if (r == kPc) {
        d.op = Op::kAluToPc;
        d.alu = 10;
        d.cls = CycleClass::kJump;
      }
      d.rd = dest(r);
      d.writes_sp = r == kSp;
    }
  } else {  // top == 15
    const unsigned kind = (w >> 16) & 3;
    if (kind == 3) {  // SPLS
      if ((w >> 15) & 1) return d;
      const bool store = (w >> 13) & 1;
      if (store && ((w >> 12) & 1)) return d;
      d.op = store ? Op::kStore : Op::kLoad;
      d.width = ((w >> 14) & 1) ? Width::kByte : Width::kHalf;
      d.zext = (w >> 12) & 1;
      d.mode = pq_mode((w >> 10) & 3);
      d.imm = static_cast<std::uint32_t>(sext(w & 0x3FF, 10));
      finish_memory(d, rd, store);
    } else {
      const std::uint32_t addr = (((w >> 18) & 31) << 16) | (w & 0xFFFF);
      d.rs1 = 0;
      d.imm = addr;
      if (kind == 2) {  // SLI
        d.op = Op::kSli;
        if (rd == kPc) {
          d.op = Op::kAluToPc;
          d.alu = 11;
          d.cls = CycleClass::kJump;
        }
        d.rd = dest(rd);
        d.writes_sp = rd == kSp;
      } else {  // SLS
        const bool store = kind == 1;
        d.op = store ? Op::kStore : Op::kLoad;
        d.mode = AddrMode::kAbsolute;
        d.width = Width::kWord;
        finish_memory(d, rd, store);
      }
    }
  }
  return d;
}

}  // namespace

namespace {

Fast fast_at(Fast base, unsigned i) { return static_cast<Fast>(static_cast<unsigned>(base) + i); }

// Loads and stores: a handler per width and addressing form. The handlers do not set r2
// before they run, so forms that read pc (or store it) stay generic, as do loads into pc
// other than the return idiom and loads into sp without write-back (the stack guard).
Fast memory_op(const Insn& d) {
  if (d.rs1 == kPc || (d.rrm && d.rs2 == kPc) || (d.op == Op::kStore && d.rd == kPc)) return Fast::kGeneric;
  const bool off = d.mode == AddrMode::kOffset || d.mode == AddrMode::kAbsolute || (d.mode == AddrMode::kBase && d.imm == 0);
  if (d.to_pc) return off && !d.rrm && d.width == Width::kWord ? Fast::kLdWPc : Fast::kGeneric;
  Fast base;
  if (d.rrm) {
    if (d.mode != AddrMode::kOffset || d.alu != kAdd) return Fast::kGeneric;
    base = Fast::kLdWRR;
  } else if (off) {
    base = Fast::kLdWOff;
  } else if (d.mode == AddrMode::kPre) {
    base = Fast::kLdWPre;
  } else if (d.mode == AddrMode::kPost) {
    base = Fast::kLdWPost;
  } else {
    return Fast::kGeneric;
  }
  if (d.writes_sp && (base == Fast::kLdWRR || base == Fast::kLdWOff)) return Fast::kGeneric;
  unsigned i;
  if (d.op == Op::kStore) i = d.width == Width::kWord ? 5 : (d.width == Width::kHalf ? 6 : 7);
  else if (d.width == Width::kWord) i = 0;
  else i = (d.width == Width::kHalf ? 1 : 3) + (d.zext ? 1 : 0);
  return fast_at(base, i);
}

// ALU forms into a GPR. RI and unpredicated RR ops index their handler by Op order.
Fast alu_op(const Insn& d) {
  if (d.rs1 == kPc) return d.op == Op::kAddRI && !d.setf && !d.writes_sp ? Fast::kAddPcI : Fast::kGeneric;
  if (d.rrm && d.rs2 == kPc) return Fast::kGeneric;
  if (d.writes_sp) {
    if (d.op == Op::kAddRI && !d.setf) return Fast::kAddISp;
    if (d.op == Op::kSubRI && !d.setf) return Fast::kSubISp;
    return Fast::kGeneric;
  }
  const unsigned op = static_cast<unsigned>(d.op);
  if (d.op >= Op::kAddRI && d.op <= Op::kShaRI) {
    return fast_at(d.setf ? Fast::kAddIF : Fast::kAddI, op - static_cast<unsigned>(Op::kAddRI));
  }
  if (d.op >= Op::kAddRR && d.op <= Op::kShaRR) {
    if (d.cc != 0) return d.setf ? Fast::kGeneric : Fast::kPredR;
    return fast_at(d.setf ? Fast::kAddRF : Fast::kAddR, op - static_cast<unsigned>(Op::kAddRR));
  }
  switch (d.op) {
    case Op::kSel: return Fast::kSel;
    case Op::kScc: return Fast::kScc;
    case Op::kPopc: return Fast::kPopc;
    case Op::kLeadz: return Fast::kLeadz;
    case Op::kTrailz: return Fast::kTrailz;
    default: return Fast::kGeneric;
  }
}

}  // namespace

Fast fast_op(const Insn& d) {
  switch (d.op) {
    case Op::kSli: return d.writes_sp ? Fast::kGeneric : Fast::kSli;
    case Op::kBr: return fast_at(Fast::kBr0, d.cc & 15u);
    case Op::kAluToPc:
      // bt %rX / mov %rX, %pc; RI, SELECT and SCC into pc are rare.
      return d.rrm && d.alu <= 8 && d.cc == 0 && !d.setf && d.rs1 != kPc && d.rs2 != kPc ? Fast::kJmpR : Fast::kGeneric;
    case Op::kLoad:
    case Op::kStore: return memory_op(d);
    case Op::kBrr:
    case Op::kIllegal: return Fast::kGeneric;
    default: return alu_op(d);
  }
}

Fast pair_op(const Insn& a, const Insn& b) {
  const Fast fa = fast_op(a), fb = fast_op(b);
  if (fb >= Fast::kBr0 && fb <= Fast::kBr15) {
    if (fa == Fast::kSubRF) return fast_at(Fast::kCmpRBr0, b.cc & 15u);
    if (fa == Fast::kSubIF) return fast_at(Fast::kCmpIBr0, b.cc & 15u);
  } else if (fb == Fast::kLdWOff) {
    if (fa == Fast::kAddR) return Fast::kAddRLdW;
    if (fa == Fast::kAddI) return Fast::kAddILdW;
  } else if (fb == Fast::kAddR && fa == Fast::kShI) {
    return Fast::kShIAddR;
  }
  return fa;
}

Insn decode(std::uint32_t w) {
  Insn d = decode_fields(w);
  d.xop = fast_op(d);
  return d;
}

}  // namespace sanvp::lanai
