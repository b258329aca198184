// The firmware debugger of one LANai core (issue 20 parts 1-2): breakpoints (address, symbol,
// file:line), watchpoints on memory ranges, step/next/finish/stepi/continue, backtrace over the
// frame chain, registers, memory, symbols and disassembly, driven by GDB-like commands from a
// stream (`sanvp fw debug IMAGE --commands FILE`, or stdin).
//
// It is a LanaiCore::DebugHook: a stop is the hook reading commands without returning, so no
// SystemC process runs and simulated time stands still; resuming changes nothing in timing.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "hw/nic/core.hpp"
#include "platform/fw/debug_line.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::fw {

class Debugger : public nic::LanaiCore::DebugHook {
 public:
  // Commands come from `in` (echoed after the prompt when `echo`: a script); everything goes to `out`.
  Debugger(const Image& im, std::istream& in, std::ostream& out, bool echo);

  void before(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) override;
  void after(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) override;

 private:
  enum class Mode { kContinue, kStepInsn, kStep, kNext, kFinish, kDetached };
  struct Breakpoint { int id; std::uint32_t addr; std::string what; };
  struct Watchpoint { int id; std::uint32_t lo, len; std::string what; std::vector<std::uint8_t> old; };
  struct Frame { std::uint32_t pc, fp, sp_entry; };

  void stop(const std::string& why);
  bool command(const std::string& line);  // true when the command resumes execution
  bool resume(Mode m);
  bool should_stop_stepping(std::uint32_t pc);
  void cmd_break(const std::string& arg);
  void cmd_watch(const std::string& arg);
  void cmd_x(const std::string& fmt_, const std::string& arg);
  void cmd_print(const std::string& arg);
  void cmd_info(const std::string& arg);
  void cmd_disassemble();
  void cmd_list();
  void backtrace();
  std::vector<Frame> frames() const;
  std::uint32_t sp_at_entry(std::uint32_t pc, std::uint32_t sp, std::uint32_t fp) const;
  std::uint32_t eval(const std::string& expr) const;  // number, $reg, symbol; UserError if unknown
  const lanai::Symbol* symbol_named(const std::string& name) const;
  std::uint32_t read32(std::uint32_t addr) const;
  // "0x00000124 <main+0x4> lines.cpp:13", the line being that of `line_pc`.
  std::string describe(std::uint32_t pc, std::uint32_t line_pc) const;
  std::string describe(std::uint32_t pc) const { return describe(pc, pc); }
  std::uint32_t function_start(std::uint32_t pc, std::uint32_t* end) const;

  lanai::SymbolTable syms_, funcs_;
  LineTable lines_;
  std::istream& in_;
  std::ostream& out_;
  bool echo_;
  nic::LanaiCore* core_ = nullptr;
  const lanai::CpuState* s_ = nullptr;
  bool first_ = true;
  Mode mode_ = Mode::kContinue;
  std::vector<Breakpoint> bps_;
  std::vector<Watchpoint> wps_;
  std::vector<std::uint32_t> bp_addrs_;  // sorted, for the per-instruction check
  int next_id_ = 1;
  // Where a step started: pc, its line row, sp and (for finish) the frame's sp at entry.
  std::uint32_t start_pc_ = 0, start_sp_ = 0, start_line_ = 0, start_file_ = 0, finish_sp_ = 0, finish_lo_ = 0, finish_hi_ = 0;
  std::uint32_t step_to_ = 0;  // after entering a function: stop past its prologue
};

}  // namespace sanvp::fw
