#include "hw/nic/iss/disasm.hpp"

#include <fmt/format.h>

#include "hw/nic/iss/isa.hpp"

namespace sanvp::lanai {

namespace {

constexpr const char* kRegNames[32] = {"r0",  "r1",  "pc",  "r3",  "sp",  "fp",  "r6",  "r7",
                                       "rv",  "r9",  "rr1", "rr2", "r12", "r13", "r14", "rca",
                                       "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
                                       "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31"};
constexpr const char* kCond[16] = {"t",  "f",  "ugt", "ule", "ult", "uge", "ne", "eq",
                                   "vc", "vs", "pl",  "mi",  "ge",  "lt",  "gt", "le"};
constexpr const char* kAluNames[8] = {"add", "addc", "sub", "subb", "and", "or", "xor", "sh"};

std::string R(unsigned r) { return std::string("%") + kRegNames[r & 31]; }

// LLVM's formatHex: negative values as -0x...
std::string hex(std::int64_t v) {
  if (v < 0) return fmt::format("-0x{:x}", static_cast<std::uint64_t>(-v));
  return fmt::format("0x{:x}", static_cast<std::uint64_t>(v));
}

std::string ins(const std::string& mn, const std::string& ops) { return mn + "\t" + ops; }

std::string unknown() { return "<unknown>"; }

// Memory operand of RM / SPLS with a constant offset.
std::string mem_imm(unsigned pq, unsigned rs1, std::int32_t off) {
  switch (pq) {
    case 0: return fmt::format("0[{}]", R(rs1));
    case 1: return fmt::format("{}[{}*]", off, R(rs1));
    case 2: return fmt::format("{}[{}]", off, R(rs1));
    default: return fmt::format("{}[*{}]", off, R(rs1));
  }
}

std::string disasm_ri(std::uint32_t w) {
  const unsigned aaa = (w >> 28) & 7, rd = (w >> 23) & 31, rs1 = (w >> 18) & 31;
  const bool f = (w >> 17) & 1, h = (w >> 16) & 1;
  const std::uint32_t imm = w & 0xFFFF;
  if (w == 0x00000001) return "nop";
  std::string mn = aaa == kShift ? (h ? "sha" : "sh") : kAluNames[aaa];
  if (f) mn += ".f";
  std::string k;
  if (aaa == kShift) k = hex(sext(imm, 16));
  else if (aaa == kAnd) k = hex(h ? ((imm << 16) | 0xFFFF) : (0xFFFF0000u | imm));
  else k = hex(h ? (imm << 16) : imm);
  if (!f && rs1 == 0 && (aaa == kAdd) ) return ins("mov", k + ", " + R(rd));
  if (!f && rs1 == 1 && aaa == kAnd) return ins("mov", k + ", " + R(rd));
  return ins(mn, R(rs1) + ", " + k + ", " + R(rd));
}

std::string disasm_rr(std::uint32_t w) {
  const unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, rs2 = (w >> 11) & 31;
  const unsigned bbb = (w >> 8) & 7, jjjjj = (w >> 3) & 31;
  const bool f = (w >> 17) & 1;
  const unsigned cc = ((w & 7) << 1) | ((w >> 16) & 1);
  std::string pred = cc ? std::string(".") + kCond[cc] : std::string();
  if (bbb != kShift && jjjjj != 0) return unknown();
  if (bbb == kShift) {
    if (jjjjj == 0 && f) return unknown();
    if (jjjjj == 0) return "\tsel." + std::string(kCond[cc]) + " " + R(rs1) + ", " + R(rs2) + ", " + R(rd);
    std::string mn = (jjjjj & 0x08) ? "sha" : "sh";
    if (jjjjj != 0x10 && jjjjj != 0x18) return unknown();
    if (f) mn += ".f";
    return ins(mn + pred, R(rs1) + ", " + R(rs2) + ", " + R(rd));
  }
  if (!f && cc == 0 && bbb == kOr && rs1 == 0 && rd == kPc) return ins("bt", R(rs2));
  if (!f && cc == 0 && bbb == kAdd && rs2 == 0) return ins("mov", R(rs1) + ", " + R(rd));
  std::string mn = kAluNames[bbb];
  if (f) mn += ".f";
  return ins(mn + pred, R(rs1) + ", " + R(rs2) + ", " + R(rd));
}

std::string width_mnemonic(bool store, unsigned size, bool zext) {
  std::string mn = store ? "st" : (zext ? "uld" : "ld");
  if (size == 2) mn += ".h";
  if (size == 1) mn += ".b";
  return mn;
}

// Increment/decrement aliases for RM and SPLS: offset equal to +-size with pre/post forms.
bool inc_alias(unsigned pq, std::int32_t off, unsigned size, unsigned rs1, std::string& out) {
  if (pq != 1 && pq != 3) return false;
  if (off != static_cast<std::int32_t>(size) && off != -static_cast<std::int32_t>(size)) return false;
  const char* op = off < 0 ? "--" : "++";
  out = pq == 3 ? fmt::format("[{}{}]", op, R(rs1)) : fmt::format("[{}{}]", R(rs1), op);
  return true;
}

std::string disasm_mem_ri(std::uint32_t w) {
  const bool store = (w >> 28) & 1;
  const unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, pq = (w >> 16) & 3;
  const std::int32_t off = sext(w & 0xFFFF, 16);
  std::string m;
  if (!inc_alias(pq, off, 4, rs1, m)) m = mem_imm(pq, rs1, off);
  if (store) return ins("st", R(rd) + ", " + m);
  std::string s = ins("ld", m + ", " + R(rd));
  if (rd == kPc && rs1 == kFp && pq == 2 && off == -4) s += " ! return";
  return s;
}

std::string disasm_mem_rr(std::uint32_t w) {
  const bool store = (w >> 28) & 1;
  const unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, rs2 = (w >> 11) & 31, pq = (w >> 16) & 3;
  const unsigned bbb = (w >> 8) & 7, jjjjj = (w >> 3) & 31, yl = (w >> 1) & 3;
  const bool e = w & 1;
  std::string aluname;
  unsigned size;
  if (bbb == kShift) return unknown();  // shift as address operator: never emitted
  (void)jjjjj;
  if (store && e) return unknown();
  {
    if (yl == 3) return unknown();
    aluname = kAluNames[bbb];
    size = yl == 1 ? 4 : (yl == 0 ? 2 : 1);
  }
  const std::string r2 = pq == 0 ? R(0) : R(rs2);
  std::string m = fmt::format("[{}{}{} {} {}]", pq == 3 ? "*" : "", R(rs1), pq == 1 ? "*" : "", aluname, r2);
  const std::string mn = width_mnemonic(store, size, e);
  if (store) return ins(mn, R(rd) + ", " + m);
  return ins(mn, m + ", " + R(rd));
}

std::string disasm_spls(std::uint32_t w) {
  if ((w >> 15) & 1) return unknown();
  const unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, pq = (w >> 10) & 3;
  const bool byte = (w >> 14) & 1, store = (w >> 13) & 1, e = (w >> 12) & 1;
  const std::int32_t off = sext(w & 0x3FF, 10);
  const unsigned size = byte ? 1 : 2;
  if (store && e) return unknown();
  std::string m;
  if (!inc_alias(pq, off, size, rs1, m)) m = mem_imm(pq, rs1, off);
  const std::string mn = width_mnemonic(store, size, e && !store);
  if (store) return ins(mn, R(rd) + ", " + m);
  return ins(mn, m + ", " + R(rd));
}

}  // namespace

const char* reg_name(unsigned r) { return kRegNames[r & 31]; }

std::string disassemble(std::uint32_t w, std::uint32_t pc) {
  const unsigned top = w >> 28;
  if (top < 8) return disasm_ri(w);
  if (top == 8 || top == 9) return disasm_mem_ri(w);
  if (top == 10 || top == 11) return disasm_mem_rr(w);
  if (top == 12) return disasm_rr(w);
  if (top == 13) {
    static constexpr const char* names[4] = {nullptr, "popc", "leadz", "trailz"};
    const unsigned op = w & 7;
    if ((w & 0x3FFF8) != 0 || op == 0 || op > 3) return unknown();
    std::string mn = names[op];
    return ins(mn, R((w >> 18) & 31) + ", " + R((w >> 23) & 31));
  }
  if (top == 14) {
    const unsigned cc = (((w >> 25) & 7) << 1) | (w & 1);
    if ((w & 2) == 0) return ins(std::string("b") + kCond[cc], hex(w & 0x01FFFFFC));
    if ((w >> 24) & 1) {
      if ((w & 0x00FF0000) != 0) return unknown();
      return ins(std::string("b") + kCond[cc] + ".r", hex(w & 0xFFFC));
    }
    if ((w & 0x0083FFFC) != 0) return unknown();
    return ins(std::string("s") + kCond[cc], R((w >> 18) & 31));
  }
  const unsigned kind = (w >> 16) & 3;
  const unsigned rd = (w >> 23) & 31;
  const std::uint32_t addr = (((w >> 18) & 31) << 16) | (w & 0xFFFF);
  if (kind == 3) return disasm_spls(w);
  if (kind == 2) return ins("mov", hex(addr) + ", " + R(rd));
  if (kind == 1) return ins("st", R(rd) + ", [" + hex(addr) + "]");
  (void)pc;
  return ins("ld", "[" + hex(addr) + "], " + R(rd));
}

std::string disassemble_pretty(std::uint32_t word, std::uint32_t pc) {
  std::string s = disassemble(word, pc);
  if (!s.empty() && s[0] == '\t') s.erase(0, 1);
  auto tab = s.find('\t');
  if (tab != std::string::npos) {
    std::string mn = s.substr(0, tab);
    s = fmt::format("{:<7} {}", mn, s.substr(tab + 1));
  }
  return s;
}

}  // namespace sanvp::lanai
