// libFuzzer target: the LANai instruction-set simulator (hw/nic/iss) on random instruction words.
// Every word must decode, disassemble and then execute or fault cleanly (a lanai::Fault), never
// crash the host. Oracles: decoded register numbers stay inside the register file, r0 reads 0 and
// r1 reads 0xFFFFFFFF after every instruction, and the observed executor (trace/profile path)
// ends in exactly the state of the fast one.
//
// Input: big-endian words. Word 0 seeds the registers r3..r31 (sp and fp point into memory);
// the rest is the code, loaded at 0x1000 in a flat 64 KiB memory (the same environment as the
// ISS tests, tb/iss/iss_harness.hpp, with address arithmetic that cannot wrap). Running off the
// end of the code stops the program; the run is bounded by a cycle budget.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hw/nic/iss/cpu_state.hpp"
#include "hw/nic/iss/disasm.hpp"
#include "hw/nic/iss/executor.hpp"
#include "hw/nic/iss/isa.hpp"

namespace {

using namespace sanvp::lanai;

[[noreturn]] void finding(const char* what, std::uint32_t pc, std::uint32_t raw) {
  std::fprintf(stderr, "fuzz_iss: %s (pc 0x%08x, word 0x%08x: %s)\n", what, pc, raw, disassemble(raw, pc).c_str());
  std::abort();
}

void check_decoded(const Insn& d, std::uint32_t pc) {
  if (d.rd > kDiscard || d.rs1 > 31 || d.rs2 > 31 || d.wb > kDiscard) finding("register number outside the register file", pc, d.raw);
  if (d.to_pc && d.op != Op::kLoad && d.op != Op::kIllegal) finding("to_pc on a non-load", pc, d.raw);
}

struct Halt {};

struct Env {
  static constexpr std::uint32_t kCodeLo = 0x1000;
  static constexpr std::uint64_t kMemSize = 0x10000;
  std::vector<std::uint8_t> mem = std::vector<std::uint8_t>(kMemSize, 0);
  std::uint32_t code_hi = kCodeLo;
  std::uint64_t taken_extra = 1;
  Insn cur;
  std::string text;  // observed run: disassembly of the current instruction

  std::uint32_t ld32(std::uint32_t a) const {
    return (std::uint32_t{mem[a]} << 24) | (std::uint32_t{mem[a + 1]} << 16) | (std::uint32_t{mem[a + 2]} << 8) | mem[a + 3];
  }
  const Insn& fetch(CpuState&, std::uint32_t pc) {
    if (pc == code_hi) throw Halt{};
    if (pc & 3u) throw Fault{FaultKind::kMisalignedFetch, pc, pc, "misaligned fetch"};
    if (pc < kCodeLo || pc > code_hi) throw Fault{FaultKind::kFetchOutsideCode, pc, pc, "fetch outside code"};
    cur = decode(ld32(pc));  // no decode cache: stores into the code are seen at once
    check_decoded(cur, pc);
    static constexpr std::uint8_t cycles[] = {1, 2, 1, 1, 2, 3};
    cur.cyc = cycles[static_cast<unsigned>(cur.cls)];
    return cur;
  }
  void check(CpuState& s, std::uint32_t ea, unsigned n) {
    if (ea & (n - 1)) throw Fault{FaultKind::kMisalignedAccess, s.pc, ea, "misaligned"};
    if (std::uint64_t{ea} + n > kMemSize) throw Fault{FaultKind::kUnmappedAccess, s.pc, ea, "unmapped"};
  }
  std::uint32_t load(CpuState& s, std::uint32_t ea, Width w, bool zext) {
    const unsigned n = static_cast<unsigned>(w);
    check(s, ea, n);
    if (n == 4) return ld32(ea);
    const std::uint32_t v = n == 2 ? (std::uint32_t{mem[ea]} << 8) | mem[ea + 1] : mem[ea];
    if (zext) return v;
    return n == 2 ? static_cast<std::uint32_t>(static_cast<std::int16_t>(v)) : static_cast<std::uint32_t>(static_cast<std::int8_t>(v));
  }
  void store(CpuState& s, std::uint32_t ea, Width w, std::uint32_t v) {
    const unsigned n = static_cast<unsigned>(w);
    check(s, ea, n);
    for (unsigned i = 0; i < n; ++i) mem[ea + i] = static_cast<std::uint8_t>(v >> (8 * (n - 1 - i)));
  }
  void before(const CpuState& s, const Insn& d) { text = disassemble_pretty(d.raw, s.pc); }
  void after(const CpuState& s, const Insn& d, std::uint64_t) {
    if (s.r[kR0] != 0 || s.r[kR1] != 0xFFFFFFFFu) finding("r0 or r1 was written", s.pc, d.raw);
  }
};

struct Outcome {
  CpuState s;
  std::vector<std::uint8_t> mem;
  int end = 0;  // 0 budget, 1 halt, 2 fault
  Fault fault;
};

template <bool kObserve>
Outcome run(const std::vector<std::uint32_t>& code, std::uint32_t seed) {
  Env env;
  for (std::size_t i = 0; i < code.size(); ++i)
    for (unsigned b = 0; b < 4; ++b) env.mem[Env::kCodeLo + 4 * i + b] = static_cast<std::uint8_t>(code[i] >> (24 - 8 * b));
  env.code_hi = Env::kCodeLo + static_cast<std::uint32_t>(4 * code.size());
  Outcome o;
  o.s.reset(Env::kCodeLo);
  for (unsigned r = 3; r < 32; ++r) o.s.r[r] = seed * (2 * r + 1) * 0x9E3779B1u;
  o.s.r[kSp] = o.s.r[kFp] = 0x8000;
  o.s.stack_limit = 0x4000;
  o.s.budget = 4096;
  try {
    run<Env, kObserve>(o.s, env);
  } catch (const Halt&) {
    o.end = 1;
  } catch (const Fault& f) {
    o.end = 2;
    o.fault = f;
    (void)fault_kind_name(f.kind);
    (void)disassemble(env.ld32(f.pc >= Env::kCodeLo && f.pc < env.code_hi ? f.pc & ~3u : Env::kCodeLo), f.pc);
  }
  o.mem = std::move(env.mem);
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return 0;
  std::vector<std::uint32_t> words;
  for (std::size_t i = 0; i + 4 <= size && words.size() < 4096; i += 4)
    words.push_back((std::uint32_t{data[i]} << 24) | (std::uint32_t{data[i + 1]} << 16) | (std::uint32_t{data[i + 2]} << 8) | data[i + 3]);
  const std::uint32_t seed = words[0];
  const std::vector<std::uint32_t> code(words.begin() + 1, words.end());
  for (std::size_t i = 0; i < code.size(); ++i) {
    const std::uint32_t pc = Env::kCodeLo + static_cast<std::uint32_t>(4 * i);
    check_decoded(decode(code[i]), pc);
    (void)disassemble(code[i], pc);
  }
  const Outcome fast = run<false>(code, seed), observed = run<true>(code, seed);
  const bool same = fast.end == observed.end && fast.s.r == observed.s.r && fast.s.pc == observed.s.pc &&
                    fast.s.cycles == observed.s.cycles && fast.s.instret == observed.s.instret &&
                    fast.s.f.n == observed.s.f.n && fast.s.f.z == observed.s.f.z && fast.s.f.v == observed.s.f.v &&
                    fast.s.f.c == observed.s.f.c && fast.mem == observed.mem &&
                    (fast.end != 2 || (fast.fault.kind == observed.fault.kind && fast.fault.pc == observed.fault.pc));
  if (!same) finding("the observed executor ends in a different state", fast.s.pc, 0);
  return 0;
}
