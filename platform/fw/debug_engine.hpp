// The firmware debugger's engine (issue 20 part 1): one DebugEngine per debugged LANai core, a
// LanaiCore::DebugHook holding that core's breakpoints, watchpoints and step mode, with frames,
// symbols, lines, registers, memory, NIC registers and disassembly. It prints nothing: a stop is
// reported to a DebugFrontEnd (the terminal's GDB-like reader, debug_terminal.hpp; the DAP
// server, dap_*.hpp), whose stopped() blocks inside the core's SystemC thread. No SystemC
// process runs meanwhile, so the whole simulation (every NIC, the fabric) is frozen at that
// instant and resuming changes nothing in timing.
//
// Several cores of one network share one DebugSession (and one front end): `node N` in a front
// end is session.engine(N); resuming one engine lets the others run freely (GDB's all-stop mode).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/base/time.hpp"
#include "hw/nic/core.hpp"
#include "platform/fw/debug_line.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::fw {

class DebugEngine;
class DebugSession;

// What a watchpoint watches, and what access fired it (kRead or kWrite).
enum class WatchKind : std::uint8_t { kRead = 1, kWrite = 2, kAccess = 3 };
const char* watch_kind_name(WatchKind k);  // "read", "write", "access"

enum class StopReason : std::uint8_t {
  kEntry,       // before the first instruction
  kBreakpoint,  // before the instruction at a breakpoint (StopEvent::id)
  kWatchpoint,  // after the instruction that accessed a watched range (StopEvent::id, access, values)
  kStep,        // a stepi/step/next ended
  kFinish,      // finish: back in the caller
  kRunTo,       // until/advance reached its location (or the frame returned)
  kPause,       // DebugEngine::pause()
  kExited,      // the firmware wrote the exit register (StopEvent::exit_code); resuming runs to the end
  kFault,       // the firmware faulted (StopEvent::text is the fault report); resuming ends the run
};
const char* stop_reason_name(StopReason r);  // "entry", "breakpoint", ...

struct StopEvent {
  StopReason reason = StopReason::kEntry;
  int id = 0;                // breakpoint / watchpoint id (0 otherwise)
  int node = 0;              // the engine's node
  std::uint32_t pc = 0;      // the instruction about to run; for kWatchpoint the one that accessed
  Time time = 0;             // the core's local time (it runs up to a quantum ahead of SystemC time)
  std::uint64_t instret = 0;
  // kWatchpoint: the access (kRead or kWrite), its address and width, and the watched bytes
  // it touched before and after (for a read, old == new == the value read; big-endian value).
  WatchKind access = WatchKind::kWrite;
  std::uint32_t addr = 0, width = 0;
  std::uint64_t old_value = 0, new_value = 0;
  std::uint32_t exit_code = 0;  // kExited
  std::string text;             // one line as the terminal prints it after "stopped: "
};

// A front end: told about every stop of every engine it was given. stopped() runs on the
// simulation thread and blocks while the user (or editor) inspects; it chooses how to go on
// with DebugEngine::resume() (on this or another engine of the session) before returning.
// Returning without calling resume() continues.
struct DebugFrontEnd {
  virtual ~DebugFrontEnd() = default;
  virtual void stopped(DebugEngine& engine, const StopEvent& ev) = 0;
};

class DebugEngine : public nic::LanaiCore::DebugHook {
 public:
  enum class Mode : std::uint8_t { kContinue, kStepInsn, kStep, kNext, kFinish, kRunTo, kDetached };
  struct Breakpoint {
    int id = 0;
    std::uint32_t addr = 0;
    std::string what;  // as given or resolved: "main.cpp:12", "fill(int)", "0x00000140"
    bool temporary = false;  // tbreak: deleted when hit
    std::uint64_t hits = 0;
  };
  struct Watchpoint {
    int id = 0;
    std::uint32_t lo = 0, len = 0;
    WatchKind kind = WatchKind::kWrite;
    std::string what;
    bool mmio = false;               // a register range (not SRAM): values are those transferred
    std::vector<std::uint8_t> old;   // SRAM: the bytes as last seen
    std::uint64_t hits = 0;
  };
  struct Frame {
    std::uint32_t pc = 0;        // frame 0: the current pc; callers: the return address
    std::uint32_t line_pc = 0;   // the pc whose line the frame shows (a caller: the call)
    std::uint32_t fp = 0, sp_entry = 0;
  };
  struct SourceLoc {
    std::string file;            // as in the line table (full path when the compiler gave one)
    std::uint32_t line = 0;
  };
  struct NicRegister {
    std::string block, name;     // "send", "SEND_CTRL"
    std::uint32_t addr = 0;
    bool readable = false;       // readable without side effects by the debugger
  };

  // Attaches to `core` (core.attach_debugger(this)). The image must be the one `core` runs; the
  // engine keeps a reference. Stops go to `fe`; `node` names the core in events and prompts.
  DebugEngine(nic::LanaiCore& core, const Image& image, int node, DebugFrontEnd& fe, DebugSession* session = nullptr);
  ~DebugEngine() override;
  DebugEngine(const DebugEngine&) = delete;
  DebugEngine& operator=(const DebugEngine&) = delete;

  // ---- LanaiCore::DebugHook ----
  void before(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) override;
  void after(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) override;
  void fault(nic::LanaiCore& core, const std::string& report) override;
  // Another initiator (DMA, PCI, the debugger itself) wrote SRAM: write watchpoints it changed
  // stop there, at the write's simulated time.
  void written(nic::LanaiCore& core, const nic::SramWrite& w) override;

  // ---- identity and state ----
  int node() const { return node_; }
  nic::LanaiCore& core() { return core_; }
  const Image& image() const { return image_; }
  bool is_stopped() const { return stopped_; }       // inside its front end's stopped()
  bool has_ended() const;                            // exited or faulted
  Mode mode() const { return mode_; }
  void set_stop_at_entry(bool on) { stop_at_entry_ = on; }  // default on

  // ---- execution (takes effect when the front end's stopped() returns) ----
  // kRunTo stops at `target` or when the current frame returns (GDB's until/advance).
  // Other engines of the session go back to kContinue (they run freely, breakpoints armed).
  void resume(Mode m, std::uint32_t target = 0);
  void detach() { mode_ = Mode::kDetached; }  // no more stops (the hook stays, returning at once)
  void pause() { pause_.store(true); }        // stop before the next instruction (any thread)

  // ---- breakpoints and watchpoints (each returns the new id; UserError on a bad location) ----
  // Location: "*EXPR" (address), "FILE:LINE", a function (stops past its prologue), or EXPR.
  int add_breakpoint(const std::string& location, bool temporary = false);
  int add_breakpoint_at(std::uint32_t addr, const std::string& what, bool temporary = false);
  // The address a location resolves to (same syntax); `what` gets its description.
  std::uint32_t resolve_location(const std::string& location, std::string* what) const;
  // Where: an expression or symbol (length: `len`, else the object's size, else 4) or a NIC
  // register name (len 4). SRAM and the system/NIC register windows may be watched.
  int add_watchpoint(const std::string& where, std::uint32_t len, WatchKind kind);
  int add_watchpoint_at(std::uint32_t lo, std::uint32_t len, WatchKind kind, const std::string& what);
  bool remove(int id);  // a breakpoint or a watchpoint; false when no such id
  void remove_all();
  const std::vector<Breakpoint>& breakpoints() const { return bps_; }
  const std::vector<Watchpoint>& watchpoints() const { return wps_; }

  // ---- registers (0..31, lanai::reg_name), memory, NIC registers ----
  std::uint32_t pc() const;                   // the instruction about to run (or that stopped at a watchpoint)
  std::uint32_t reg(unsigned r) const;        // r == lanai::kPc: pc()
  void set_reg(unsigned r, std::uint32_t v);  // UserError for r0, r1 and pc (read-only here)
  const lanai::CpuState& cpu() const { return core_.state(); }
  Time time() const { return core_.debug_time(); }
  std::uint64_t instret() const { return core_.state().instret; }
  // Without time or side effects (TLM debug transport); the bytes transferred (short where unmapped).
  unsigned read_memory(std::uint32_t addr, std::uint8_t* buf, unsigned n);
  unsigned write_memory(std::uint32_t addr, const std::uint8_t* buf, unsigned n);
  std::uint32_t read32(std::uint32_t addr);                      // UserError where unreadable
  void write_value(std::uint32_t addr, std::uint32_t v, unsigned width);  // width 1, 2, 4; UserError
  static std::vector<NicRegister> nic_registers();               // the register catalog, by address
  // A register read or write as the firmware would make it now, with its side effects but taking
  // no firmware time (only while stopped). Reads of registers with read side effects (WAIT
  // sleeps, RTC_LO latches RTC_HI, ...: NicRegister::readable false) and refused accesses are UserErrors.
  std::uint32_t read_nic_register(const NicRegister& r);
  void write_nic_register(const NicRegister& r, std::uint32_t v);
  static const NicRegister* nic_register_named(const std::string& name);  // "SEND_CTRL" or "send.SEND_CTRL"

  // ---- symbols, lines, frames, disassembly ----
  const lanai::SymbolTable& symbols() const { return syms_; }
  const lanai::SymbolTable& functions() const { return funcs_; }
  const LineTable& lines() const { return lines_; }
  const lanai::Symbol* symbol_named(const std::string& name) const;  // also "fill" for "fill(int)"
  bool source_of(std::uint32_t pc, SourceLoc* loc) const;           // false without line info
  // A number, $reg / $pc, a symbol or a NIC register name, optionally "+OFFSET" -> value / address; UserError if unknown.
  std::uint32_t eval(const std::string& expr);
  std::vector<Frame> frames();                                   // frame 0 first
  std::uint32_t function_start(std::uint32_t pc, std::uint32_t* end) const;
  // "0x00000124 <main+0x4> lines.cpp:13", the line being that of `line_pc`.
  std::string describe(std::uint32_t pc, std::uint32_t line_pc) const;
  std::string describe(std::uint32_t pc) const { return describe(pc, pc); }
  // "0x00000124 <main+0x4>: add %r3, 0x1, %r3" lines for [lo, hi) clipped to the code range.
  struct DisasmLine { std::uint32_t addr = 0, word = 0; std::string symbol, text; };
  std::vector<DisasmLine> disassemble(std::uint32_t lo, std::uint32_t hi);

 private:
  friend class DebugSession;
  // A load or store about to touch a watched range (noted before the instruction runs).
  struct Access {
    bool pending = false;
    std::uint32_t ea = 0, width = 0;
    bool store = false;
    std::uint8_t rd = 0;                // the loaded register (0: none, e.g. a load into pc)
    std::vector<std::uint8_t> before;  // SRAM bytes before the access
    std::uint32_t value = 0;            // a store's value
  };
  StopEvent event(StopReason r, int id, const std::string& text) const;
  void report(const StopEvent& ev);
  void report_simple(StopReason r, int id, const std::string& text);
  bool should_stop_stepping(std::uint32_t pc);
  bool check_breakpoint(std::uint32_t pc);
  void check_run_to(std::uint32_t pc);
  void note_access(const lanai::CpuState& s, const lanai::Insn& d);
  void check_watchpoints(const lanai::CpuState& s);
  std::uint32_t sp_at_entry(std::uint32_t pc, std::uint32_t sp, std::uint32_t fp);
  void rebuild_bp_addrs();
  void resume_others_continue();

  nic::LanaiCore& core_;
  const Image& image_;
  int node_;
  DebugFrontEnd& fe_;
  DebugSession* session_;
  lanai::SymbolTable syms_, funcs_;
  LineTable lines_;
  bool stopped_ = false, stop_at_entry_ = true, first_ = true, in_after_ = false;
  std::atomic<bool> pause_{false};
  Mode mode_ = Mode::kContinue;
  std::vector<Breakpoint> bps_;
  std::vector<Watchpoint> wps_;
  std::vector<std::uint32_t> bp_addrs_;  // sorted, for the per-instruction check
  Access access_;
  // Where a step started: pc, its line row, sp and (for finish/run-to) the frame's sp at entry.
  std::uint32_t start_pc_ = 0, start_sp_ = 0, start_line_ = 0, start_file_ = 0, finish_sp_ = 0, finish_lo_ = 0, finish_hi_ = 0;
  std::uint32_t step_to_ = 0;  // after entering a function: stop past its prologue
  std::uint32_t run_to_target_ = 0;
  int next_id_ = 1;
  bool exit_reported_ = false;
};

// The engines of one debugged run (one per core) sharing one front end. Ids of breakpoints
// and watchpoints are per engine.
class DebugSession {
 public:
  explicit DebugSession(DebugFrontEnd& fe) : fe_(fe) {}
  // Creates and attaches an engine; only the first attached engine stops at entry.
  DebugEngine& attach(nic::LanaiCore& core, const Image& image, int node);
  const std::vector<std::unique_ptr<DebugEngine>>& engines() const { return engines_; }
  DebugEngine* engine(int node);  // nullptr when that node is not debugged
  // Called by DebugEngine::resume: every other engine goes back to kContinue (unless detached).
  void resumed(DebugEngine& which);
  void detach_all();

 private:
  DebugFrontEnd& fe_;
  std::vector<std::unique_ptr<DebugEngine>> engines_;
};

}  // namespace sanvp::fw
