// LanaiCore: the NIC's processor as a TLM-2.0 initiator. It runs predecoded Lanai code
// (hw/nic/iss) ahead of SystemC time by at most one quantum (tlm_utils::tlm_quantumkeeper),
// with DMI to SRAM for fetches, loads and stores and b_transport for everything else. With DMI
// to the code it runs predecoded blocks (iss/threaded.hpp); otherwise, and when observed
// (trace, profile, debugger), one instruction at a time (iss/executor.hpp).
// Firmware time = cycles x clock period, cycles from a per-instruction-class model, plus any
// delay that MMIO targets annotate.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <utility>
#include <vector>

#include "hw/nic/iss/cpu_state.hpp"
#include "hw/nic/iss/isa.hpp"
#include "hw/nic/iss/symbols.hpp"
#include "hw/base/endian.hpp"
#include "hw/base/params.hpp"
#include "hw/base/quantum.hpp"
#include "hw/nic/core_params.hpp"
#include "hw/nic/sram_write.hpp"
#include "hw/base/time.hpp"

namespace sanvp::nic {

class LanaiCore : public sc_core::sc_module {
 public:

  // Clock, DMI and cycles per instruction class: core.params.yaml (nic.core.*).
  struct Config : CoreParams {
    Time quantum = QuantumParams::kQuantum.def;
    static Config from_params(ParamValues& pv, const std::string& path);
    std::uint64_t clock_hz() const;
    std::uint8_t cycles_of(lanai::CycleClass c) const;
  };

  // What the loader tells the core about the program in SRAM.
  struct Program {
    std::uint32_t entry = 0;
    std::uint32_t code_lo = 0, code_hi = 0;  // instructions may only be fetched from [lo, hi)
    std::uint32_t stack_limit = 0;           // sp below this is a stack overflow (0: no check)
    lanai::SymbolTable symbols;
  };

  enum class Outcome { kRunning, kExited, kFault };
  struct Result {
    Outcome outcome = Outcome::kRunning;
    std::uint32_t exit_code = 0;
    Time end_time = 0;  // time of the exit-register write, or of the faulting instruction
    std::uint64_t instructions = 0;
    std::uint64_t cycles = 0;
    std::string fault_report;  // multi-line, for kFault
  };

  tlm_utils::simple_initiator_socket<LanaiCore> socket;

  SC_HAS_PROCESS(LanaiCore);
  LanaiCore(sc_core::sc_module_name name, const Config& cfg, Program prog);

  // Ends execution after the current instruction (the exit register calls this).
  void request_exit(std::uint32_t code, Time when);
  // Ends the current quantum after the current instruction, so SystemC time catches up with
  // the core before it runs on (for devices whose registers start activity elsewhere).
  // Targets may also block inside b_transport (wait-for-event): the core adds the time spent.
  void request_sync();
  const Result& result() const { return result_; }
  // Called once the core has stopped (exit or fault). Default: sc_stop().
  std::function<void()> on_stop;

  // Developer tools. A trace line per instruction whose pc lies in one of `ranges`
  // (empty: all) goes to `out`.
  void enable_trace(std::ostream* out, std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges);
  void enable_profile();
  std::string profile_report() const;

  // Debugger (platform/fw/debug*): called around every instruction through the observing
  // loop, so a core without one runs the plain loop. A stop is the hook not returning: no
  // SystemC process runs meanwhile, so the whole simulation is frozen at that instant.
  struct DebugHook {
    virtual ~DebugHook() = default;
    virtual void before(LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) = 0;
    virtual void after(LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) = 0;
    // The core faulted (`report` as Result::fault_report), before on_stop: a last stop.
    virtual void fault(LanaiCore& core, const std::string& report) { (void)core, (void)report; }
    // Another initiator wrote memory (see memory_written), at w.when; the hook may stop there.
    virtual void written(LanaiCore& core, const SramWrite& w) { (void)core, (void)w; }
  };
  void attach_debugger(DebugHook* hook) {
    debug_ = hook;
    observe_ = true;
    if (hear_all) hear_all(true);
  }
  // Writes into SRAM by other initiators (DMA engines, PCI, debugger, loader, bus transport),
  // as the SRAM reports them (hw/nic/core_sram.hpp wires it; w.addr in the core's address
  // space): drops the predecoded blocks of the code pages written; the debugger hears of it.
  void memory_written(const SramWrite& w);
  // Set by that wiring: hear_all(true) widens what the core hears of from its code to all SRAM.
  std::function<void(bool all)> hear_all;
  // Reads memory as the core sees it, without time or side effects (transport_dbg); the number
  // of bytes read (short at an unmapped address).
  unsigned debug_read(std::uint32_t addr, std::uint8_t* buf, unsigned n);
  unsigned debug_write(std::uint32_t addr, const std::uint8_t* buf, unsigned n);
  // A NIC-register access by the debugger at a stop: the 32-bit access the firmware would make
  // at this instant (register windows take no debug transport), with its side effects but no
  // firmware time. False, with `error` set, when the target refuses it.
  bool debug_mmio(bool write, std::uint32_t addr, std::uint32_t& v, std::string* error);
  // The debugger's register writes (while the core is stopped in its hook).
  lanai::CpuState& debug_state() { return s_; }
  Time debug_time() const { return core_time(); }
  const Program& program() const { return prog_; }

  // Block engine counters: blocks built and pages whose blocks a write into code dropped.
  struct BlockStats {
    std::uint64_t built = 0, pages_dropped = 0;
  };
  const BlockStats& block_stats() const { return block_stats_; }

  // Quantum slices run, and how many of them ended in a hand-over to the kernel (the others ran
  // on: nothing else was scheduled before the core's time, see may_run_on).
  struct SliceStats {
    std::uint64_t slices = 0, handovers = 0;
  };
  const SliceStats& slice_stats() const { return slice_stats_; }

  Time cycles_to_time(std::uint64_t cycles) const;
  const lanai::CpuState& state() const { return s_; }
  const Config& config() const { return cfg_; }

  // --- Executor environment (see hw/nic/iss/executor.hpp); public for the template only ---
  std::uint64_t taken_extra = 1;
  inline const lanai::Insn& fetch(lanai::CpuState& s, std::uint32_t pc);
  // Block engine (hw/nic/iss/threaded.hpp): the verified block at pc; none without DMI to code.
  inline lanai::BlockRef block(lanai::CpuState& s, std::uint32_t pc);
  // The built block at pc, its length and slowest path's cycles set (block chaining), else nullptr.
  inline const lanai::Insn* chain(std::uint32_t pc, std::uint32_t& len, std::uint64_t& max_cycles) const;
  // The slice ends at `cycles` on the engine's chain path: true (s.budget set to the next
  // slice's end) when the core runs on without a hand-over, as run_thread would have let it.
  bool next_slice(lanai::CpuState& s, std::uint64_t cycles);
  bool leave_block = false;  // predecoded code may be stale: the block engine re-looks up
  lanai::DirectMem direct_mem() const { return {dmi_, dmi_lo_, dmi_len_, prog_.code_lo, code_len_}; }
  inline std::uint32_t load(lanai::CpuState& s, std::uint32_t ea, lanai::Width w, bool zext);
  inline void store(lanai::CpuState& s, std::uint32_t ea, lanai::Width w, std::uint32_t v);
  void before(const lanai::CpuState& s, const lanai::Insn& d);
  void after(const lanai::CpuState& s, const lanai::Insn& d, std::uint64_t cycles);

 private:
  void run_thread();
  bool may_run_on(Time ct) const;
  void sync_to(Time t);
  std::uint64_t slice_budget(Time start, std::uint64_t cycles) const;
  void acquire_dmi();
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void predecode_all();
  lanai::Insn decode_with_cycles(std::uint32_t raw, std::uint32_t pc) const;
  [[noreturn]] void fetch_fault(std::uint32_t pc) const;
  [[noreturn]] void misaligned(std::uint32_t ea, unsigned n, bool is_store) const;
  const lanai::Insn& refetch(lanai::Insn& d, std::uint32_t raw);
  void build_block(std::uint32_t i);
  void code_stored(std::uint32_t ea) { drop_page((ea - prog_.code_lo) >> kPageShift); }
  void drop_page(std::uint32_t page);
  std::uint32_t fetch_slow(std::uint32_t pc);
  std::uint32_t transport(tlm::tlm_command cmd, std::uint32_t ea, unsigned n, std::uint32_t v);
  Time core_time() const { return start_time_ + cycles_to_time(s_.cycles) + extra_time_; }
  std::string fault_report(const lanai::Fault& f) const;
  std::uint32_t code_word(std::uint32_t pc) const;
  std::string insn_text(std::uint32_t word, std::uint32_t pc) const;  // disassembly + branch target symbol

  Config cfg_;
  Program prog_;
  std::uint64_t clock_hz_;
  lanai::CpuState s_;
  Result result_;
  tlm_utils::tlm_quantumkeeper qk_;
  tlm::tlm_generic_payload tx_;  // payload for transported accesses
  Time start_time_ = 0;
  Time extra_time_ = 0;  // delay annotated by targets of transported accesses
  Time slice_start_ = 0;  // the slice's start: the kernel's time after a hand-over, else the core's
  bool halted_ = false;

  // DMI window (host pointer to the first byte of [dmi_lo_, dmi_lo_ + dmi_len_)).
  std::uint8_t* dmi_ = nullptr;
  std::uint32_t dmi_lo_ = 0, dmi_len_ = 0;
  const std::uint8_t* dmi_code_ = nullptr;  // host pointer to code_lo when code is in the DMI window

  std::vector<lanai::Insn> icache_;  // one entry per code word; re-decoded when memory changes
  std::uint32_t code_len_ = 0;
  // Blocks of the block engine, one slot per code word (the block starting there). A block
  // stays valid until a write into its page drops it: the core's own stores into code
  // (code_stored) and every other initiator's writes, which the SRAM reports (memory_written),
  // drop the blocks of the written pages at once, if a page holds any (code_pages_).
  struct BlockInfo {
    std::uint32_t len = 0, max_cycles = 0;  // len 0: never built, or dropped
  };
  static constexpr unsigned kPageShift = 8;  // 256-byte pages: 64 instructions; blocks stay in one
  std::vector<BlockInfo> blocks_;
  std::vector<std::uint8_t> code_pages_;  // 1: blocks were built from this page
  BlockStats block_stats_;
  SliceStats slice_stats_;

  // Trace and profile.
  bool observe_ = false;
  std::ostream* trace_ = nullptr;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> trace_ranges_;
  std::array<std::uint32_t, 33> trace_regs_{};
  lanai::Flags trace_flags_;
  Time trace_time_ = 0;
  bool profile_ = false;
  std::vector<std::uint64_t> prof_count_, prof_cycles_;
  DebugHook* debug_ = nullptr;
};

// ---- inline hot paths ----

inline const lanai::Insn& LanaiCore::fetch(lanai::CpuState&, std::uint32_t pc) {
  const std::uint32_t off = pc - prog_.code_lo;
  if (off >= code_len_ || (pc & 3u)) fetch_fault(pc);
  lanai::Insn& d = icache_[off >> 2];
  const std::uint32_t raw = dmi_code_ ? get_be32(dmi_code_ + off) : fetch_slow(pc);
  if (raw != d.raw) return refetch(d, raw);
  return d;
}

inline lanai::BlockRef LanaiCore::block(lanai::CpuState&, std::uint32_t pc) {
  if (!dmi_code_) return {};
  const std::uint32_t off = pc - prog_.code_lo;
  if (off >= code_len_ || (pc & 3u)) fetch_fault(pc);
  const std::uint32_t i = off >> 2;
  const BlockInfo& b = blocks_[i];
  if (b.len == 0) build_block(i);
  return {&icache_[i], b.len, b.max_cycles};
}

inline const lanai::Insn* LanaiCore::chain(std::uint32_t pc, std::uint32_t& len, std::uint64_t& max_cycles) const {
  const std::uint32_t off = pc - prog_.code_lo;
  if (off >= code_len_ || (pc & 3u)) return nullptr;  // the slow path faults
  const BlockInfo& b = blocks_[off >> 2];
  // len 0: dropped by a code write, or never built; the slow path (re)builds it.
  if (b.len == 0) return nullptr;
  len = b.len;
  max_cycles = b.max_cycles;
  return &icache_[off >> 2];
}

inline std::uint32_t LanaiCore::load(lanai::CpuState&, std::uint32_t ea, lanai::Width w, bool zext) {
  const unsigned n = static_cast<unsigned>(w);
  if (ea & (n - 1)) misaligned(ea, n, false);
  const std::uint32_t off = ea - dmi_lo_;
  std::uint32_t v;
  if (off < dmi_len_) {
    const std::uint8_t* p = dmi_ + off;
    if (w == lanai::Width::kWord) return get_be32(p);
    v = (w == lanai::Width::kHalf) ? ((std::uint32_t{p[0]} << 8) | p[1]) : p[0];
  } else {
    v = transport(tlm::TLM_READ_COMMAND, ea, n, 0);
    if (w == lanai::Width::kWord) return v;
  }
  if (zext) return v;
  return w == lanai::Width::kHalf ? static_cast<std::uint32_t>(static_cast<std::int16_t>(v))
                                  : static_cast<std::uint32_t>(static_cast<std::int8_t>(v));
}

inline void LanaiCore::store(lanai::CpuState&, std::uint32_t ea, lanai::Width w, std::uint32_t v) {
  const unsigned n = static_cast<unsigned>(w);
  if (ea & (n - 1)) misaligned(ea, n, true);
  const std::uint32_t off = ea - dmi_lo_;
  if (off < dmi_len_) {
    if (ea - prog_.code_lo < code_len_) code_stored(ea);
    std::uint8_t* p = dmi_ + off;
    if (w == lanai::Width::kWord) {
      const std::uint32_t b = __builtin_bswap32(v);
      __builtin_memcpy(p, &b, 4);
    } else if (w == lanai::Width::kHalf) {
      p[0] = static_cast<std::uint8_t>(v >> 8);
      p[1] = static_cast<std::uint8_t>(v);
    } else {
      p[0] = static_cast<std::uint8_t>(v);
    }
    return;
  }
  transport(tlm::TLM_WRITE_COMMAND, ea, n, v);
}

}  // namespace sanvp::nic
