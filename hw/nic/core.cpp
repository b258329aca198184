#include "hw/nic/core.hpp"
#include "hw/nic/refusal.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <ostream>

#include "hw/nic/iss/disasm.hpp"
#include "hw/nic/iss/threaded.hpp"
#include "hw/base/error.hpp"
#include "hw/base/lookahead.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp::nic {

using lanai::CycleClass;
using lanai::Fault;
using lanai::FaultKind;
using lanai::Insn;

LanaiCore::Config LanaiCore::Config::from_params(ParamValues& pv, const std::string& path) {
  // The declared clock range keeps it at 1 Hz or more: cycle times are computed in whole Hz.
  Config c;
  c.read_params(pv, path);
  c.quantum = tlm_quantum(pv);
  return c;
}

std::uint8_t LanaiCore::Config::cycles_of(lanai::CycleClass c) const {
  switch (c) {
    case lanai::CycleClass::kAlu: return cycles_alu;
    case lanai::CycleClass::kLoad: return cycles_load;
    case lanai::CycleClass::kStore: return cycles_store;
    case lanai::CycleClass::kBranch: return cycles_branch;
    case lanai::CycleClass::kJump: return cycles_jump;
    default: return cycles_load_pc;
  }
}

std::uint64_t LanaiCore::Config::clock_hz() const { return static_cast<std::uint64_t>(std::llround(clock_mhz * 1e6)); }

LanaiCore::LanaiCore(sc_core::sc_module_name name, const Config& cfg, Program prog)
    : sc_module(name), socket("socket"), cfg_(cfg), prog_(std::move(prog)), clock_hz_(cfg.clock_hz()) {
  cfg_.check_ranges(std::string(this->name()) + ": ");
  taken_extra = cfg_.cycles_taken;
  if (prog_.code_hi < prog_.code_lo || ((prog_.code_lo | prog_.code_hi) & 3u))
    throw UserError(fmt::format("{}: bad code range 0x{:x}..0x{:x}", this->name(), prog_.code_lo, prog_.code_hi));
  code_len_ = prog_.code_hi - prog_.code_lo;
  socket.register_invalidate_direct_mem_ptr(this, &LanaiCore::invalidate_direct_mem_ptr);
  // One simulation-wide value (sim.quantum): every core sets the same global quantum.
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time(static_cast<double>(cfg_.quantum), sc_core::SC_PS));
  on_stop = [] { sc_core::sc_stop(); };
  SC_THREAD(run_thread);
}

Time LanaiCore::cycles_to_time(std::uint64_t cycles) const {
  // Exact: floor(cycles * 1e12 / f) computed from the absolute count, so no rounding drift.
  const unsigned __int128 ps = static_cast<unsigned __int128>(cycles) * 1000000000000ull / clock_hz_;
  return static_cast<Time>(ps);
}

void LanaiCore::request_exit(std::uint32_t code, Time when) {
  if (halted_) return;
  halted_ = true;
  s_.budget = 0;
  result_.outcome = Outcome::kExited;
  result_.exit_code = code;
  result_.end_time = when;
}

void LanaiCore::request_sync() { s_.budget = 0; }

void LanaiCore::enable_trace(std::ostream* out, std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges) {
  trace_ = out;
  trace_ranges_ = std::move(ranges);
  observe_ = true;
}

void LanaiCore::enable_profile() {
  profile_ = true;
  observe_ = true;
}

Insn LanaiCore::decode_with_cycles(std::uint32_t raw, std::uint32_t pc) const {
  Insn d = lanai::decode(raw);
  d.cyc = cfg_.cycles_of(d.cls);
  d.pc = pc;
  return d;
}

void LanaiCore::acquire_dmi() {
  dmi_ = nullptr;
  dmi_lo_ = dmi_len_ = 0;
  dmi_code_ = nullptr;
  if (!cfg_.dmi) return;
  tlm::tlm_generic_payload p;
  tlm::tlm_dmi dmi;
  p.set_address(prog_.code_lo);
  p.set_command(tlm::TLM_READ_COMMAND);
  if (!socket->get_direct_mem_ptr(p, dmi) || !dmi.is_read_write_allowed()) return;
  const std::uint64_t lo = dmi.get_start_address(), hi = dmi.get_end_address();
  if (lo > 0xFFFFFFFFull || (lo & 3u)) return;
  const std::uint64_t len = std::min<std::uint64_t>(hi - lo + 1, 0x100000000ull - lo) & ~std::uint64_t{3};
  dmi_ = dmi.get_dmi_ptr();
  dmi_lo_ = static_cast<std::uint32_t>(lo);
  dmi_len_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(len, 0xFFFFFFFCull));
  if (prog_.code_lo >= dmi_lo_ && std::uint64_t{prog_.code_hi} <= std::uint64_t{dmi_lo_} + dmi_len_)
    dmi_code_ = dmi_ + (prog_.code_lo - dmi_lo_);
}

void LanaiCore::invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) {
  // Drop the window; the next run slice asks again.
  leave_block = true;
  dmi_ = nullptr;
  dmi_lo_ = dmi_len_ = 0;
  dmi_code_ = nullptr;
}

std::uint32_t LanaiCore::code_word(std::uint32_t pc) const {
  if (pc - prog_.code_lo >= code_len_ || (pc & 3u)) return 0;
  return icache_[(pc - prog_.code_lo) >> 2].raw;
}

void LanaiCore::predecode_all() {
  icache_.assign(code_len_ / 4, Insn{});
  blocks_.assign(code_len_ / 4, BlockInfo{});
  code_pages_.assign((code_len_ >> kPageShift) + 1, 0);
  for (std::uint32_t off = 0; off < code_len_; off += 4) {
    std::uint32_t raw;
    if (dmi_code_) {
      raw = get_be32(dmi_code_ + off);
    } else {
      std::uint8_t b[4] = {0, 0, 0, 0};
      tlm::tlm_generic_payload p;
      p.set_command(tlm::TLM_READ_COMMAND);
      p.set_address(prog_.code_lo + off);
      p.set_data_ptr(b);
      p.set_data_length(4);
      if (socket->transport_dbg(p) != 4)
        throw UserError(fmt::format("{}: code at 0x{:08x} is not in readable memory", name(), prog_.code_lo + off));
      raw = get_be32(b);
    }
    icache_[off >> 2] = decode_with_cycles(raw, prog_.code_lo + off);
  }
}

const Insn& LanaiCore::refetch(Insn& d, std::uint32_t raw) {
  d = decode_with_cycles(raw, d.pc);
  return d;
}

void LanaiCore::build_block(std::uint32_t i) {
  // Decoded from memory as it is now. The block ends after the delay slots of a transfer that
  // is not a conditional branch,
  // before a page end (so dropping a page's blocks drops every block that holds a word of it),
  // or at an instruction that always faults.
  constexpr std::uint32_t kPageWords = 1u << (kPageShift - 2);
  ++block_stats_.built;
  const std::uint32_t end = std::min<std::uint32_t>((i / kPageWords + 1) * kPageWords, code_len_ / 4);
  std::uint32_t len = 0, slots = 0, cycles = 0;
  bool transfer = false;
  for (std::uint32_t j = i; j < end; ++j) {
    const std::uint32_t raw = get_be32(dmi_code_ + 4 * j);
    if (raw != icache_[j].raw) icache_[j] = decode_with_cycles(raw, prog_.code_lo + 4 * j);
    const Insn& d = icache_[j];
    ++len;
    cycles += d.cyc + (d.op == lanai::Op::kBr ? static_cast<std::uint32_t>(taken_extra) : 0u);
    if (transfer) {
      if (--slots == 0) break;
    } else if (d.op == lanai::Op::kBr && d.cc != lanai::kT) {
      // A conditional branch does not end the block: taken, the engine leaves the block after
      // its delay slot; not taken, the block goes on (no lookup for the fall-through).
    } else if (d.op == lanai::Op::kBr || d.op == lanai::Op::kAluToPc || d.to_pc) {
      transfer = true;
      slots = d.to_pc ? 2 : 1;
    } else if (d.op == lanai::Op::kBrr || d.op == lanai::Op::kIllegal) {
      break;
    }
  }
  code_pages_[i / kPageWords] = 1;
  blocks_[i] = BlockInfo{len, cycles};
  // The block engine counts a block's cycles from Insn::cum, the page's running sum (at most
  // 64 x 255 cycles: no overflow). A word re-decoded above changes it only from there on;
  // it is in no other valid block (its page was dropped when it changed), so the differences
  // within every valid block of the page stay as they were.
  // Compare-and-branch pairs (lanai::pair_op) likewise, from the page's words as decoded now: the
  // pair's handler runs the branch only inside a valid block, which holds both words as they are.
  std::uint16_t cum = 0;
  for (std::uint32_t j = i / kPageWords * kPageWords; j < end; ++j) {
    cum = static_cast<std::uint16_t>(cum + icache_[j].cyc);
    icache_[j].cum = cum;
    icache_[j].xop = j + 1 < end ? lanai::pair_op(icache_[j], icache_[j + 1]) : lanai::fast_op(icache_[j]);
  }
}

void LanaiCore::drop_page(std::uint32_t page) {
  if (!code_pages_[page]) return;  // no block holds a word of this page
  code_pages_[page] = 0;
  ++block_stats_.pages_dropped;
  constexpr std::uint32_t kPageWords = 1u << (kPageShift - 2);
  const std::uint32_t end = std::min<std::uint32_t>((page + 1) * kPageWords, static_cast<std::uint32_t>(blocks_.size()));
  for (std::uint32_t j = page * kPageWords; j < end; ++j) blocks_[j].len = 0;
  leave_block = true;  // the running block may hold the written word
}

void LanaiCore::memory_written(const SramWrite& w) {
  // Before the core first runs there are no blocks (the loader's writes land here too).
  const std::uint64_t lo = w.addr, hi = std::uint64_t{w.addr} + w.len;
  if (!code_pages_.empty() && lo < prog_.code_hi && hi > prog_.code_lo) {
    const std::uint32_t first = static_cast<std::uint32_t>(std::max<std::uint64_t>(lo, prog_.code_lo) - prog_.code_lo) >> kPageShift;
    const std::uint32_t last = static_cast<std::uint32_t>(std::min<std::uint64_t>(hi, prog_.code_hi) - 1 - prog_.code_lo) >> kPageShift;
    for (std::uint32_t p = first; p <= last; ++p) drop_page(p);
  }
  if (debug_) debug_->written(*this, w);
}

void LanaiCore::fetch_fault(std::uint32_t pc) const {
  if (pc & 3u) throw Fault{FaultKind::kMisalignedFetch, pc, pc, fmt::format("instruction fetch from misaligned address 0x{:08x}", pc)};
  throw Fault{FaultKind::kFetchOutsideCode, pc, pc,
              fmt::format("instruction fetch from 0x{:08x}, outside the code range 0x{:08x}..0x{:08x}", pc, prog_.code_lo, prog_.code_hi)};
}

void LanaiCore::misaligned(std::uint32_t ea, unsigned n, bool is_store) const {
  throw Fault{FaultKind::kMisalignedAccess, s_.pc, ea,
              fmt::format("{} of {} bytes at misaligned address 0x{:08x}", is_store ? "store" : "load", n, ea)};
}

std::uint32_t LanaiCore::fetch_slow(std::uint32_t pc) { return transport(tlm::TLM_READ_COMMAND, pc, 4, 0); }

std::uint32_t LanaiCore::transport(tlm::tlm_command cmd, std::uint32_t ea, unsigned n, std::uint32_t v) {
  std::uint8_t b[4] = {0, 0, 0, 0};
  if (cmd == tlm::TLM_WRITE_COMMAND)
    for (unsigned i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * (n - 1 - i)));
  tlm::tlm_generic_payload& p = tx_;  // reused: constructing a payload allocates its extension array
  p.set_command(cmd);
  p.set_address(ea);
  p.set_data_ptr(b);
  p.set_data_length(n);
  p.set_streaming_width(n);
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const Time issue = core_time();
  const Time stamp = now_ps();
  // The target may wait (other processes run) or act on memory itself: writes into code drop
  // the predecoded blocks as they happen (memory_written).
  sc_core::sc_time delay(static_cast<double>(issue - stamp), sc_core::SC_PS);
  socket->b_transport(p, delay);
  // The access ends at (SystemC time + returned delay). A target may annotate delay or block
  // (wait-for-event style registers call wait() inside b_transport); both count as firmware time.
  const Time end = now_ps() + static_cast<Time>(delay.value());
  if (end > issue) extra_time_ += end - issue;
  if (p.get_response_status() != tlm::TLM_OK_RESPONSE) {
    const bool unmapped = p.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE;
    Refusal* why = p.get_extension<Refusal>();
    const std::string cause = why ? why->why : p.get_response_string();
    p.clear_extension(why);  // the payload is reused; the target owns the extension
    throw Fault{unmapped ? FaultKind::kUnmappedAccess : FaultKind::kBusError, s_.pc, ea,
                fmt::format("{} of {} bytes at 0x{:08x}: {}", cmd == tlm::TLM_WRITE_COMMAND ? "store" : "load", n, ea, cause)};
  }
  if (cmd == tlm::TLM_WRITE_COMMAND) return 0;
  std::uint32_t r = 0;
  for (unsigned i = 0; i < n; ++i) r = (r << 8) | b[i];
  return r;
}

unsigned LanaiCore::debug_read(std::uint32_t addr, std::uint8_t* buf, unsigned n) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(buf);
  p.set_data_length(n);
  return socket->transport_dbg(p);
}

unsigned LanaiCore::debug_write(std::uint32_t addr, const std::uint8_t* buf, unsigned n) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(const_cast<std::uint8_t*>(buf));  // a write transfers from the buffer only
  p.set_data_length(n);
  return socket->transport_dbg(p);
}

bool LanaiCore::debug_mmio(bool write, std::uint32_t addr, std::uint32_t& v, std::string* error) {
  const Time extra = extra_time_;  // the debugger's access costs the firmware nothing
  try {
    const std::uint32_t r = transport(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, 4, v);
    if (!write) v = r;
  } catch (const Fault& f) {
    *error = f.detail;
  }
  extra_time_ = extra;
  return error->empty();
}

void LanaiCore::before(const lanai::CpuState& s, const Insn& d) {
  if (debug_) debug_->before(*this, s, d);
  if (!trace_) return;
  std::copy(s.r.begin(), s.r.begin() + 33, trace_regs_.begin());
  trace_flags_ = s.f;
  trace_time_ = core_time();
}

void LanaiCore::after(const lanai::CpuState& s, const Insn& d, std::uint64_t cycles) {
  if (debug_) debug_->after(*this, s, d);
  const std::uint32_t pc = s.r[lanai::kPc];
  if (profile_) {
    const std::size_t i = (pc - prog_.code_lo) >> 2;
    ++prof_count_[i];
    prof_cycles_[i] += cycles;
  }
  if (!trace_) return;
  if (!trace_ranges_.empty()) {
    bool in = false;
    for (const auto& [lo, hi] : trace_ranges_) in = in || (pc >= lo && pc < hi);
    if (!in) return;
  }
  // Register writes: the destination of every register-writing instruction that executed
  // (even when the value did not change), plus any other register that changed (write-back).
  std::string writes;
  using lanai::Op;
  const bool pred_ok = !d.rrm || d.cc == 0 || d.op == Op::kSel || lanai::cond_holds(d.cc, trace_flags_);
  const bool writes_rd = d.rd < 32 && d.op != Op::kStore && d.op != Op::kBr && d.op != Op::kBrr && d.op != Op::kAluToPc &&
                         d.op != Op::kIllegal && !d.to_pc && pred_ok;
  for (unsigned r = 3; r < 32; ++r)
    if (s.r[r] != trace_regs_[r] || (writes_rd && r == d.rd)) writes += fmt::format(" {}=0x{:08x}", lanai::reg_name(r), s.r[r]);
  if (s.f.n != trace_flags_.n || s.f.z != trace_flags_.z || s.f.v != trace_flags_.v || s.f.c != trace_flags_.c)
    writes += fmt::format(" flags={}{}{}{}", s.f.n ? 'N' : 'n', s.f.z ? 'Z' : 'z', s.f.v ? 'V' : 'v', s.f.c ? 'C' : 'c');
  for (unsigned i = 0; i < 3; ++i)
    if (s.qmask & (1u << i)) {
      writes += fmt::format(" ->0x{:08x}", s.q[i]);
      break;
    }
  *trace_ << fmt::format("{:>14} {:08x} {:<28} {:<34}{}\n", format_time(trace_time_), pc, prog_.symbols.describe(pc),
                         insn_text(d.raw, pc), writes);
}

std::string LanaiCore::profile_report() const {
  struct Row { std::uint64_t insns = 0, cycles = 0; };
  std::map<std::string, Row> rows;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < prof_count_.size(); ++i) {
    if (!prof_count_[i]) continue;
    const std::uint32_t pc = prog_.code_lo + static_cast<std::uint32_t>(i * 4);
    const lanai::Symbol* sym = prog_.symbols.find(pc);
    Row& r = rows[sym ? sym->display : fmt::format("0x{:08x}", pc)];
    r.insns += prof_count_[i];
    r.cycles += prof_cycles_[i];
    total += prof_cycles_[i];
  }
  std::vector<std::pair<std::string, Row>> v(rows.begin(), rows.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second.cycles > b.second.cycles; });
  std::string out = fmt::format("flat profile ({} cycles, {} instructions, {} of firmware time)\n", total, s_.instret,
                                format_time(cycles_to_time(total)));
  out += fmt::format("{:>7} {:>14} {:>14} {:>12}  {}\n", "%time", "cycles", "instructions", "time", "function");
  for (const auto& [name, r] : v)
    out += fmt::format("{:>6.2f}% {:>14} {:>14} {:>12}  {}\n", total ? 100.0 * static_cast<double>(r.cycles) / static_cast<double>(total) : 0.0,
                       r.cycles, r.insns, format_time(cycles_to_time(r.cycles)), name);
  return out;
}

std::string LanaiCore::insn_text(std::uint32_t word, std::uint32_t pc) const {
  std::string t = lanai::disassemble_pretty(word, pc);
  if ((word >> 28) == 14 && (word & 2u) == 0) t += " <" + prog_.symbols.describe(word & 0x01FFFFFCu) + ">";  // branch target
  return t;
}

std::string LanaiCore::fault_report(const Fault& f) const {
  std::string o;
  const std::uint32_t w = code_word(f.pc);
  o += fmt::format("firmware fault: {}\n", lanai::fault_kind_name(f.kind));
  o += fmt::format("  time  : {}\n", format_time(core_time()));
  o += fmt::format("  pc    : 0x{:08x} <{}>\n", f.pc, prog_.symbols.describe(f.pc));
  if (f.pc - prog_.code_lo < code_len_ && !(f.pc & 3u))
    o += fmt::format("  insn  : {:08x}  {}\n", w, insn_text(w, f.pc));
  else
    o += "  insn  : (not in code)\n";
  o += fmt::format("  cause : {}\n", f.detail);
  o += "  registers:\n";
  for (unsigned r = 0; r < 32; ++r) {
    o += fmt::format("    {:<4}= 0x{:08x}", lanai::reg_name(r), r == lanai::kPc ? f.pc : s_.r[r]);
    if (r % 4 == 3) o += "\n";
  }
  o += fmt::format("  flags : N={} Z={} V={} C={}\n", int(s_.f.n), int(s_.f.z), int(s_.f.v), int(s_.f.c));
  const unsigned n = std::min<std::uint32_t>(s_.hist_n, 16);
  o += fmt::format("  last {} pcs (oldest first):\n", n);
  for (unsigned i = 0; i < n; ++i) {
    const std::uint32_t pc = s_.hist[(s_.hist_n - n + i) & 15u];
    o += fmt::format("    0x{:08x} {:<28} {}\n", pc, "<" + prog_.symbols.describe(pc) + ">", insn_text(code_word(pc), pc));
  }
  o += fmt::format("  retired: {} instructions, {} cycles\n", s_.instret, s_.cycles);
  return o;
}

// Ending a slice hands control to the kernel, which resumes the core at its time ct. When no
// other process is scheduled up to ct (no delta activity, no timed event at or before it) and
// nobody reads the model's state before ct (Lookahead::limit: the end of the run loop's kernel
// step, 0 where tests call sc_start themselves), that hand-over changes nothing: no process runs
// in between and the core resumes at ct as if it had gone on. Then it goes on without the
// context switch. The slices themselves, and so every result, stay those of the quantum.
bool LanaiCore::may_run_on(Time ct) const {
  if (halted_ || ct >= Lookahead::limit()) return false;
  const sc_core::sc_time gap = sc_core::sc_time_to_pending_activity();
  const Time stamp = now_ps();
  return stamp + static_cast<Time>(gap.value()) > ct;
}

// The kernel's time catches up with the core's: at the end of each slice that cannot run on,
// and before the core stops (on_stop sees the time it would have seen after every hand-over).
void LanaiCore::sync_to(Time t) {
  const Time stamp = now_ps();
  if (t <= stamp) return;
  ++slice_stats_.handovers;
  qk_.set(sc_core::sc_time(static_cast<double>(t - stamp), sc_core::SC_PS));
  qk_.sync();
}

// The cycle count at which the slice starting at `start` ends: the smallest c with
// start_time + time(c) + extra >= start + quantum, i.e. c = ceil(T * f / 1e12); at least one
// cycle past `cycles` (the core's count now).
std::uint64_t LanaiCore::slice_budget(Time start, std::uint64_t cycles) const {
  const Time goal = start + cfg_.quantum, base = start_time_ + extra_time_;
  const Time until = goal > base ? goal - base : 0;
  const unsigned __int128 c = (static_cast<unsigned __int128>(until) * clock_hz_ + 999999999999ull) / 1000000000000ull;
  return std::max<std::uint64_t>(static_cast<std::uint64_t>(c), cycles + 1);
}

// A slice that ends on the block engine's chain path (no access through the environment since
// the engine last looked the block up, so DMI, the halt flag and the kernel's pending events are
// what they were): what run_thread does between two slices when the core may run on, without
// leaving the engine (its state write-back, pc-history flush and block lookup). False: the
// engine returns and run_thread hands over as before.
bool LanaiCore::next_slice(lanai::CpuState& s, std::uint64_t cycles) {
  const Time ct = start_time_ + cycles_to_time(cycles) + extra_time_;
  if (!may_run_on(ct)) return false;
  slice_start_ = std::max(ct, now_ps());
  s.budget = slice_budget(slice_start_, cycles);
  ++slice_stats_.slices;
  return true;
}

void LanaiCore::run_thread() {
  start_time_ = now_ps();
  acquire_dmi();
  predecode_all();
  s_.reset(prog_.entry);
  s_.stack_limit = prog_.stack_limit;
  if (profile_) {
    prof_count_.assign(icache_.size(), 0);
    prof_cycles_.assign(icache_.size(), 0);
  }
  qk_.reset();
  slice_start_ = start_time_;
  try {
    while (!halted_) {
      if (cfg_.dmi && !dmi_) acquire_dmi();
      s_.budget = slice_budget(slice_start_, s_.cycles);
      ++slice_stats_.slices;
      if (observe_) {
        lanai::run<LanaiCore, true>(s_, *this);
      } else {
        lanai::run_blocks(s_, *this);  // runs on through slices itself where next_slice lets it
        // Without DMI to the code (never granted, or invalidated during the slice).
        if (!halted_ && s_.cycles < s_.budget) lanai::run<LanaiCore, false>(s_, *this);
      }
      // Catch SystemC time up with the core. Measured from the current time, not the slice
      // start: a target that blocked inside b_transport (wait-for-event) has already moved
      // SystemC time forward, and the core's clock includes that wait.
      const Time ct = core_time();
      if (!may_run_on(ct)) sync_to(ct);
      slice_start_ = std::max(ct, now_ps());
    }
  } catch (const Fault& f) {
    result_.outcome = Outcome::kFault;
    result_.end_time = core_time();
    result_.fault_report = fault_report(f);
  }
  sync_to(slice_start_);  // outside the handler: no context switch while an exception is being handled
  if (result_.outcome == Outcome::kFault && debug_) debug_->fault(*this, result_.fault_report);
  result_.instructions = s_.instret;
  result_.cycles = s_.cycles;
  if (on_stop) on_stop();
}

}  // namespace sanvp::nic
