// Test harness for the bare executor: flat big-endian memory, code assembled by llvm-mc at
// test time, execution until pc reaches the end of the code. Every program runs through both
// engines, the one-instruction loop (executor.hpp) and the block engine (threaded.hpp), and
// the final states must be identical.
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "hw/nic/iss/threaded.hpp"
#include "hw/nic/iss/isa.hpp"

namespace sanvp::test {

inline std::string tool_output(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("popen failed: " + cmd);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  if (st != 0) throw std::runtime_error("command failed: " + cmd + "\n" + out);
  return out;
}

inline std::string temp_path(const std::string& suffix) {
  return "/tmp/sanvp_iss_" + std::to_string(getpid()) + suffix;
}

// Assembles Lanai assembly with llvm-mc and returns the .text words in order (instructions and
// .long data alike). Snippets that need relocations are refused: the ISS tests run unlinked code.
inline std::vector<std::uint32_t> assemble(const std::string& text) {
  const std::string src = temp_path(".s"), obj = temp_path(".o"), bin = temp_path(".bin");
  {
    std::ofstream f(src);
    f << text << "\n";
  }
  const std::string enc = tool_output(std::string(LLVM_MC) + " --triple=lanai -show-encoding " + src + " 2>&1");
  if (enc.find("fixup") != std::string::npos || enc.find("error") != std::string::npos)
    throw std::runtime_error("snippet needs fixups or does not assemble:\n" + enc);
  tool_output(std::string(LLVM_MC) + " --triple=lanai -filetype=obj " + src + " -o " + obj);
  tool_output(std::string(LLVM_OBJCOPY) + " -O binary --only-section=.text " + obj + " " + bin);
  std::ifstream in(bin, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& p : {src, obj, bin}) std::remove(p.c_str());
  std::vector<std::uint32_t> words;
  for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    std::uint32_t w = 0;
    for (std::size_t k = 0; k < 4; ++k) w = (w << 8) | static_cast<std::uint8_t>(bytes[i + k]);
    words.push_back(w);
  }
  return words;
}

struct Halt {};

struct FlatEnv {
  std::vector<std::uint8_t> mem = std::vector<std::uint8_t>(0x10000, 0);
  std::uint32_t code_lo = 0x1000, code_hi = 0x1000;
  std::uint64_t taken_extra = 0;
  lanai::Insn cur;

  void load_code(const std::vector<std::uint32_t>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) st32(code_lo + static_cast<std::uint32_t>(4 * i), words[i]);
    code_hi = code_lo + static_cast<std::uint32_t>(4 * words.size());
  }
  void st32(std::uint32_t a, std::uint32_t v) {
    mem.at(a) = static_cast<std::uint8_t>(v >> 24);
    mem.at(a + 1) = static_cast<std::uint8_t>(v >> 16);
    mem.at(a + 2) = static_cast<std::uint8_t>(v >> 8);
    mem.at(a + 3) = static_cast<std::uint8_t>(v);
  }
  std::uint32_t ld32(std::uint32_t a) const {
    return (std::uint32_t{mem.at(a)} << 24) | (std::uint32_t{mem.at(a + 1)} << 16) | (std::uint32_t{mem.at(a + 2)} << 8) | mem.at(a + 3);
  }
  const lanai::Insn& fetch(lanai::CpuState&, std::uint32_t pc) {
    if (pc == code_hi) throw Halt{};
    if (pc < code_lo || pc > code_hi || (pc & 3u))
      throw lanai::Fault{lanai::FaultKind::kFetchOutsideCode, pc, pc, "fetch outside code"};
    cur = decode_at(pc);
    return cur;
  }
  // Cycles per instruction class (all 1 unless a test varies them).
  std::array<std::uint8_t, static_cast<unsigned>(lanai::CycleClass::kCount)> cycles_of{1, 1, 1, 1, 1, 1};
  lanai::Insn decode_at(std::uint32_t pc) const {
    lanai::Insn d = lanai::decode(ld32(pc));
    d.cyc = cycles_of[static_cast<unsigned>(d.cls)];
    d.pc = pc;
    return d;
  }
  std::uint32_t load(lanai::CpuState& s, std::uint32_t ea, lanai::Width w, bool zext) {
    const unsigned n = static_cast<unsigned>(w);
    if (ea & (n - 1)) throw lanai::Fault{lanai::FaultKind::kMisalignedAccess, s.pc, ea, "misaligned"};
    if (ea + n > mem.size()) throw lanai::Fault{lanai::FaultKind::kUnmappedAccess, s.pc, ea, "unmapped"};
    if (n == 4) return ld32(ea);
    std::uint32_t v = n == 2 ? (std::uint32_t{mem[ea]} << 8) | mem[ea + 1] : mem[ea];
    if (zext) return v;
    return n == 2 ? static_cast<std::uint32_t>(static_cast<std::int16_t>(v)) : static_cast<std::uint32_t>(static_cast<std::int8_t>(v));
  }
  void store(lanai::CpuState& s, std::uint32_t ea, lanai::Width w, std::uint32_t v) {
    const unsigned n = static_cast<unsigned>(w);
    if (ea & (n - 1)) throw lanai::Fault{lanai::FaultKind::kMisalignedAccess, s.pc, ea, "misaligned"};
    if (ea + n > mem.size()) throw lanai::Fault{lanai::FaultKind::kUnmappedAccess, s.pc, ea, "unmapped"};
    for (unsigned i = 0; i < n; ++i) mem[ea + i] = static_cast<std::uint8_t>(v >> (8 * (n - 1 - i)));
    if (ea >= code_lo && ea < code_hi) leave_block = true;
  }

  // Block engine: the block at pc, decoded afresh at every lookup (a store into code leaves
  // the running block). Ends as the core's blocks do: after the delay slots of a transfer
  // other than a conditional branch.
  bool leave_block = false;
  bool direct = true;  // hand the block engine the whole memory as its DMI window
  lanai::DirectMem direct_mem() {
    if (!direct) return {};
    return {mem.data(), 0, static_cast<std::uint32_t>(mem.size()), code_lo, code_hi - code_lo};
  }
  lanai::BlockRef block(lanai::CpuState& s, std::uint32_t pc) {
    fetch(s, pc);  // the same faults and end of program as the one-instruction loop
    Built& b = built[pc];  // replaced: no block runs while the engine looks one up
    std::vector<lanai::Insn>& blk = b.insns;
    blk.clear();
    std::uint64_t max_cycles = 0;
    unsigned slots = 0;
    std::uint16_t cum = 0;
    for (std::uint32_t a = pc; a < code_hi; a += 4) {
      lanai::Insn d = decode_at(a);
      cum = static_cast<std::uint16_t>(cum + d.cyc);
      d.cum = cum;
      blk.push_back(d);
      max_cycles += d.cyc + (d.op == lanai::Op::kBr ? taken_extra : 0);
      if (slots) {
        if (--slots == 0) break;
      } else if (d.op == lanai::Op::kBr && d.cc != lanai::kT) {
        // conditional: the block goes on past it
      } else if (d.op == lanai::Op::kBr || d.op == lanai::Op::kAluToPc || d.to_pc) {
        slots = d.to_pc ? 2 : 1;
      } else if (d.op == lanai::Op::kBrr || d.op == lanai::Op::kIllegal) {
        break;
      }
    }
    for (std::size_t k = 0; k + 1 < blk.size(); ++k) blk[k].xop = lanai::pair_op(blk[k], blk[k + 1]);
    b.max_cycles = max_cycles;
    return {blk.data(), static_cast<std::uint32_t>(blk.size()), max_cycles};
  }
  // Chaining: a block built before, if every word of it is still in memory as decoded then
  // (the end of the program and faults take the slow path).
  const lanai::Insn* chain(std::uint32_t pc, std::uint32_t& len, std::uint64_t& max_cycles) {
    const auto it = built.find(pc);
    if (pc == code_hi || it == built.end()) return nullptr;
    const std::vector<lanai::Insn>& v = it->second.insns;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (pc + 4 * i + 4 > code_hi || ld32(pc + static_cast<std::uint32_t>(4 * i)) != v[i].raw) return nullptr;
    ++chained;
    len = static_cast<std::uint32_t>(v.size());
    max_cycles = it->second.max_cycles;
    return v.data();
  }
  // Slice ends on the chain path: with `slice` set, the engine runs on into a next slice of
  // that many cycles (up to `until`), as the core does when nothing else is scheduled.
  std::uint64_t slice = 0, until = 0, slices_run_on = 0;
  std::vector<std::uint64_t> slice_ends;  // the cycle count at every slice end, in order
  bool next_slice(lanai::CpuState& s, std::uint64_t cycles) {
    if (slice == 0 || cycles >= until) return false;
    slice_ends.push_back(cycles);
    s.budget = std::min(cycles + slice, until);
    ++slices_run_on;
    return true;
  }
  struct Built {
    std::vector<lanai::Insn> insns;
    std::uint64_t max_cycles = 0;
  };
  std::map<std::uint32_t, Built> built;
  std::uint64_t chained = 0;  // blocks chain() found (entered whole or, at a slice's end, in part)
};

// Runs `asm_text` from code_lo until pc reaches the end of the code; registers preset by `init`.
struct Machine {
  FlatEnv env;
  lanai::CpuState s;
  std::vector<std::uint32_t> words;

  explicit Machine(const std::string& asm_text) : Machine(assemble(asm_text)) {}
  explicit Machine(std::vector<std::uint32_t> code) {
    words = std::move(code);
    env.load_code(words);
    s.reset(env.code_lo);
    s.r[lanai::kSp] = 0x8000;
    s.r[lanai::kFp] = 0x8000;
  }
  Machine& set(unsigned r, std::uint32_t v) {
    s.r[r] = v;
    return *this;
  }
  // How a run ended: 0 end of code, 1 fault, 2 budget exhausted.
  struct End {
    int how = 2;
    lanai::Fault fault{};
  };
  End exec(bool blocks, std::uint64_t max_instructions) {
    s.budget = max_instructions;
    return exec_slice(blocks);
  }
  // Slices of `slice` cycles up to `until`, each next one set as the core's run_thread sets it
  // (from the cycle count the last one ended at); the block engine also runs on through slice
  // ends itself (next_slice), the one-instruction loop returns at each.
  End exec_sliced(bool blocks, std::uint64_t until, std::uint64_t slice) {
    env.slice = blocks ? slice : 0;
    env.until = until;
    s.budget = std::min(slice, until);
    for (;;) {
      const End e = exec_slice(blocks);
      if (e.how != 2 || s.cycles >= until) return e;
      env.slice_ends.push_back(s.cycles);
      s.budget = std::min(s.cycles + slice, until);
    }
  }
  End exec_slice(bool blocks) {
    End e;
    try {
      if (blocks) lanai::run_blocks(s, env);
      else lanai::run<FlatEnv, false>(s, env);
    } catch (const Halt&) {
      e.how = 0;
    } catch (const lanai::Fault& f) {
      e.how = 1;
      e.fault = f;
    }
    return e;
  }
  // Runs a copy through the one-instruction loop and this machine through the block engine;
  // true when both end the same way in the same state (registers, flags, counters, delay-slot
  // queue, pc history, memory).
  bool run_both(std::uint64_t max_instructions, End* how = nullptr) {
    Machine ref = *this;
    const End a = ref.exec(false, max_instructions), b = exec(true, max_instructions);
    if (how) *how = b;
    return same(ref, a, b);
  }
  // The same in slices (exec_sliced).
  bool run_both_sliced(std::uint64_t until, std::uint64_t slice) {
    Machine ref = *this;
    const End a = ref.exec_sliced(false, until, slice), b = exec_sliced(true, until, slice);
    return same(ref, a, b) && ref.env.slice_ends == env.slice_ends;
  }
  bool same(const Machine& ref, const End& a, const End& b) const {
    return a.how == b.how && a.fault.kind == b.fault.kind && a.fault.pc == b.fault.pc && a.fault.addr == b.fault.addr &&
           ref.s.r == s.r && ref.s.pc == s.pc && ref.s.cycles == s.cycles && ref.s.instret == s.instret &&
           ref.s.qmask == s.qmask && ref.s.q == s.q && ref.s.hist == s.hist && ref.s.hist_n == s.hist_n &&
           ref.s.f.n == s.f.n && ref.s.f.z == s.f.z && ref.s.f.v == s.f.v && ref.s.f.c == s.f.c && ref.env.mem == env.mem;
  }
  Machine& run(std::uint64_t max_instructions = 10000) {
    End b;
    if (!run_both(max_instructions, &b)) throw std::runtime_error("the block engine and the one-instruction loop end in different states");
    if (b.how == 1) throw b.fault;
    if (b.how == 2) throw std::runtime_error("program did not reach its end");
    return *this;
  }
  std::uint32_t r(unsigned i) const { return s.r[i]; }
};

}  // namespace sanvp::test
