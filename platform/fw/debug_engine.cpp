#include "platform/fw/debug_engine.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/nic/iss/disasm.hpp"
#include "hw/nic/iss/executor.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/register.hpp"

namespace sanvp::fw {

using lanai::kFp;
using lanai::kPc;
using lanai::kSp;

namespace {

constexpr std::uint32_t kPushFp = 0x9293FFFCu;  // st %fp, [--%sp]: the first word of every compiled function

std::vector<lanai::Symbol> functions_of(const Image& im) {
  std::vector<lanai::Symbol> f;
  for (const auto& s : im.symbols)
    if (s.is_function) f.push_back(s);
  return f;
}

// The name a user types for a function: "mid" for "mid(int)", "fib" for "(anonymous namespace)::fib(unsigned int)".
std::string short_name(std::string display) {
  const std::string anon = "(anonymous namespace)::";
  for (std::size_t a; (a = display.find(anon)) != std::string::npos;) display.erase(a, anon.size());
  std::string n = display.substr(0, display.find('('));
  const auto c = n.rfind("::");
  return c == std::string::npos ? n : n.substr(c + 2);
}

// SRAM is plain memory; the register windows above it are not (a debug read may not reach them).
bool is_mmio(std::uint32_t addr) { return addr >= nic::map::kSysBase; }

std::uint64_t be_value(const std::vector<std::uint8_t>& b) {
  std::uint64_t v = 0;
  for (auto x : b) v = (v << 8) | x;
  return v;
}

}  // namespace

const char* watch_kind_name(WatchKind k) {
  switch (k) {
    case WatchKind::kRead: return "read";
    case WatchKind::kWrite: return "write";
    default: return "access";
  }
}

const char* stop_reason_name(StopReason r) {
  static const char* const kNames[] = {"entry", "breakpoint", "watchpoint", "step", "finish", "run-to", "pause", "exited", "fault"};
  return kNames[static_cast<int>(r)];
}

DebugEngine::DebugEngine(nic::LanaiCore& core, const Image& image, int node, DebugFrontEnd& fe, DebugSession* session)
    : core_(core), image_(image), node_(node), fe_(fe), session_(session), syms_(image.symbols), funcs_(functions_of(image)),
      lines_(image, "firmware image") {
  core_.attach_debugger(this);
}

DebugEngine::~DebugEngine() = default;

bool DebugEngine::has_ended() const { return core_.result().outcome != nic::LanaiCore::Outcome::kRunning; }

// ---- the hook ----

void DebugEngine::before(nic::LanaiCore&, const lanai::CpuState& s, const lanai::Insn& d) {
  if (mode_ == Mode::kDetached) return;
  const std::uint32_t pc = s.r[kPc];
  if (first_) {
    first_ = false;
    if (stop_at_entry_) report_simple(StopReason::kEntry, 0, "at entry");
  } else if (pause_.load(std::memory_order_relaxed)) {
    pause_.store(false);
    report_simple(StopReason::kPause, 0, "paused");
  } else if (!check_breakpoint(pc) && mode_ != Mode::kContinue) {
    if (mode_ == Mode::kStepInsn) report_simple(StopReason::kStep, 0, "stepped one instruction");
    else if (mode_ == Mode::kRunTo) check_run_to(pc);
    else if (should_stop_stepping(pc))
      report_simple(mode_ == Mode::kFinish ? StopReason::kFinish : StopReason::kStep, 0,
                    mode_ == Mode::kFinish ? "returned from the function" : "stepped to a new line");
  }
  // After any stop: watchpoints set at this stop apply to this instruction's access.
  if (!wps_.empty() && (d.op == lanai::Op::kLoad || d.op == lanai::Op::kStore) && mode_ != Mode::kDetached) note_access(s, d);
}

void DebugEngine::after(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn&) {
  if (mode_ == Mode::kDetached) return;
  if (access_.pending) check_watchpoints(s);
  if (!exit_reported_ && core.result().outcome == nic::LanaiCore::Outcome::kExited) {
    exit_reported_ = true;
    StopEvent ev = event(StopReason::kExited, 0, fmt::format("exited with code {}", core.result().exit_code));
    ev.exit_code = core.result().exit_code;
    in_after_ = true;
    report(ev);
    in_after_ = false;
  }
}

void DebugEngine::fault(nic::LanaiCore&, const std::string& report_text) {
  if (mode_ == Mode::kDetached) return;
  StopEvent ev = event(StopReason::kFault, 0, report_text);
  report(ev);
}

void DebugEngine::written(nic::LanaiCore&, const nic::SramWrite& w) {
  // The core's own transported stores are checked per instruction (check_watchpoints).
  if (mode_ == Mode::kDetached || w.who == nic::SramWriter::kBus) return;
  const std::uint64_t wlo = w.addr, whi = wlo + w.len;
  Watchpoint* fired = nullptr;
  std::string detail;
  for (auto& wp : wps_) {
    const std::uint64_t lo = std::max<std::uint64_t>(wlo, wp.lo), hi = std::min<std::uint64_t>(whi, std::uint64_t{wp.lo} + wp.len);
    if (wp.mmio || lo >= hi) continue;
    std::vector<std::uint8_t> now(hi - lo);
    read_memory(static_cast<std::uint32_t>(lo), now.data(), static_cast<unsigned>(now.size()));
    std::string d;
    unsigned shown = 0;
    for (std::uint64_t a = lo; a < hi; ++a) {
      std::uint8_t& old = wp.old[a - wp.lo];
      const std::uint8_t v = now[a - lo];
      if (v != old && shown++ < 16) d += fmt::format(" [+{}] 0x{:02x} -> 0x{:02x}", a - wp.lo, old, v);
      old = v;  // the debugger's own writes only refresh what the watchpoint last saw
    }
    if (shown > 16) d += fmt::format(" (+{} more)", shown - 16);
    if (!fired && shown && w.who != nic::SramWriter::kDebugger && (static_cast<unsigned>(wp.kind) & static_cast<unsigned>(WatchKind::kWrite))) {
      fired = &wp;
      detail = d;
    }
  }
  if (!fired) return;
  ++fired->hits;
  StopEvent ev = event(StopReason::kWatchpoint, fired->id,
                       fmt::format("watchpoint {} ({}) written by {} at t={}, 0x{:08x}..0x{:08x}:{}", fired->id, fired->what,
                                   nic::sram_writer_name(w.who), format_time(w.when), w.addr, w.addr + w.len - 1, detail));
  ev.time = w.when;
  ev.access = WatchKind::kWrite;
  ev.addr = w.addr;
  ev.width = w.len;
  report(ev);
}

StopEvent DebugEngine::event(StopReason r, int id, const std::string& text) const {
  StopEvent ev;
  ev.reason = r;
  ev.id = id;
  ev.node = node_;
  ev.pc = pc();
  ev.time = time();
  ev.instret = instret();
  ev.text = text;
  return ev;
}

void DebugEngine::report_simple(StopReason r, int id, const std::string& text) { report(event(r, id, text)); }

void DebugEngine::report(const StopEvent& ev) {
  step_to_ = 0;
  mode_ = Mode::kContinue;  // unless the front end says otherwise
  stopped_ = true;
  fe_.stopped(*this, ev);
  stopped_ = false;
}

bool DebugEngine::check_breakpoint(std::uint32_t pc) {
  if (!std::binary_search(bp_addrs_.begin(), bp_addrs_.end(), pc)) return false;
  for (auto& b : bps_) {
    if (b.addr != pc) continue;
    ++b.hits;
    const Breakpoint hit = b;
    if (hit.temporary) remove(hit.id);
    report_simple(StopReason::kBreakpoint, hit.id, fmt::format("{}breakpoint {} ({})", hit.temporary ? "temporary " : "", hit.id, hit.what));
    return true;
  }
  return false;
}

void DebugEngine::check_run_to(std::uint32_t pc) {
  const std::uint32_t sp = core_.state().r[kSp];
  if (pc == run_to_target_) report_simple(StopReason::kRunTo, 0, fmt::format("reached {}", describe(pc)));
  else if (sp > finish_sp_ && (pc < finish_lo_ || pc >= finish_hi_)) report_simple(StopReason::kRunTo, 0, "returned from the function");
}

bool DebugEngine::should_stop_stepping(std::uint32_t pc) {
  const std::uint32_t sp = core_.state().r[kSp];
  if (mode_ == Mode::kFinish) return sp > finish_sp_ && (pc < finish_lo_ || pc >= finish_hi_);
  if (step_to_) return pc == step_to_;
  if (!lines_.is_stmt_start(pc)) return false;
  if (mode_ == Mode::kNext && sp < start_sp_) return false;  // inside a call made by this line
  const LineRow* r = lines_.find(pc);
  if (r->line == start_line_ && r->file == start_file_ && pc > start_pc_ && sp == start_sp_) return false;
  // Stepping into a function stops past its prologue, where its frame (and bt) is complete.
  std::uint32_t end = 0;
  if (function_start(pc, &end) == pc) {
    const std::uint32_t body = lines_.after_prologue(pc, end);
    if (body != pc) {
      step_to_ = body;
      return false;
    }
  }
  return true;
}

// ---- execution ----

void DebugEngine::resume(Mode m, std::uint32_t target) {
  if (lines_.empty() && (m == Mode::kStep || m == Mode::kNext)) m = Mode::kStepInsn;  // no line table: built without -g
  mode_ = m;
  step_to_ = 0;
  const auto& s = core_.state();
  const std::uint32_t pc = this->pc();
  start_pc_ = pc;
  start_sp_ = s.r[kSp];
  const LineRow* r = lines_.find(pc);
  start_line_ = r ? r->line : 0;
  start_file_ = r ? r->file : 0;
  run_to_target_ = target;
  if (m == Mode::kFinish || m == Mode::kRunTo) {
    finish_sp_ = sp_at_entry(pc, s.r[kSp], s.r[kFp]);
    finish_lo_ = function_start(pc, &finish_hi_);
  }
  if (session_) session_->resumed(*this);
}

void DebugEngine::resume_others_continue() {
  if (mode_ != Mode::kDetached) mode_ = Mode::kContinue;
  step_to_ = 0;
}

// ---- breakpoints and watchpoints ----

std::uint32_t DebugEngine::resolve_location(const std::string& arg, std::string* what) const {
  *what = arg;
  const auto colon = arg.rfind(':');
  if (!arg.empty() && arg[0] == '*') return const_cast<DebugEngine*>(this)->eval(arg.substr(1));
  if (colon != std::string::npos && colon + 1 < arg.size() && std::isdigit(static_cast<unsigned char>(arg[colon + 1]))) {
    if (lines_.empty()) throw UserError("the image has no line table: build it with -g");
    std::uint32_t found = 0;
    const auto line = static_cast<std::uint32_t>(parse_int(arg.substr(colon + 1), "line", 1, 1 << 30));
    const std::uint32_t addr = lines_.address_of(arg.substr(0, colon), line, &found);
    if (!addr) throw UserError(fmt::format("no code at or after {}", arg));
    *what = fmt::format("{}:{}", arg.substr(0, colon), found);
    return addr;
  }
  if (const auto* s = symbol_named(arg); s && s->is_function) {
    *what = s->display;
    return lines_.after_prologue(s->addr, s->addr + std::max<std::uint32_t>(s->size, 4));
  }
  return const_cast<DebugEngine*>(this)->eval(arg.empty() ? "$pc" : arg);
}

int DebugEngine::add_breakpoint(const std::string& location, bool temporary) {
  std::string what;
  const std::uint32_t addr = resolve_location(location, &what);
  return add_breakpoint_at(addr, what, temporary);
}

int DebugEngine::add_breakpoint_at(std::uint32_t addr, const std::string& what, bool temporary) {
  const auto& prog = core_.program();
  if (addr < prog.code_lo || addr >= prog.code_hi || (addr & 3u))
    throw UserError(fmt::format("0x{:08x} is not an instruction address (code is 0x{:08x}..0x{:08x})", addr, prog.code_lo, prog.code_hi));
  bps_.push_back({next_id_++, addr, what, temporary, 0});
  rebuild_bp_addrs();
  return bps_.back().id;
}

int DebugEngine::add_watchpoint(const std::string& where, std::uint32_t len, WatchKind kind) {
  if (const NicRegister* r = nic_register_named(where)) return add_watchpoint_at(r->addr, len ? len : 4, kind, r->name);
  const lanai::Symbol* s = symbol_named(where);
  const std::uint32_t lo = eval(where);
  if (!len) len = s && !s->is_function && s->size ? s->size : 4;
  return add_watchpoint_at(lo, len, kind, s ? s->display : where);
}

int DebugEngine::add_watchpoint_at(std::uint32_t lo, std::uint32_t len, WatchKind kind, const std::string& what) {
  if (len == 0 || len > (1u << 20)) throw UserError(fmt::format("watch length {} is outside 1..1048576", len));
  if (std::uint64_t{lo} + len > 0x100000000ull) throw UserError(fmt::format("cannot watch 0x{:08x}+{}: past the end of the address space", lo, len));
  Watchpoint w{next_id_++, lo, len, kind, what, is_mmio(lo), {}, 0};
  if (!w.mmio) {
    w.old.resize(len);
    if (read_memory(lo, w.old.data(), len) != len) throw UserError(fmt::format("cannot watch 0x{:08x}+{}: not readable memory", lo, len));
  }
  wps_.push_back(std::move(w));
  return wps_.back().id;
}

bool DebugEngine::remove(int id) {
  const std::size_t n = bps_.size() + wps_.size();
  bps_.erase(std::remove_if(bps_.begin(), bps_.end(), [&](const Breakpoint& b) { return b.id == id; }), bps_.end());
  wps_.erase(std::remove_if(wps_.begin(), wps_.end(), [&](const Watchpoint& w) { return w.id == id; }), wps_.end());
  rebuild_bp_addrs();
  return bps_.size() + wps_.size() != n;
}

void DebugEngine::remove_all() {
  bps_.clear();
  wps_.clear();
  bp_addrs_.clear();
}

void DebugEngine::rebuild_bp_addrs() {
  bp_addrs_.clear();
  for (const auto& b : bps_) bp_addrs_.push_back(b.addr);
  std::sort(bp_addrs_.begin(), bp_addrs_.end());
}

// The effective address as the executor forms it (hw/nic/iss/executor.hpp), from the registers
// before the instruction; the bytes it will touch are saved when a watchpoint covers them.
void DebugEngine::note_access(const lanai::CpuState& s, const lanai::Insn& d) {
  std::uint32_t ea;
  if (d.mode == lanai::AddrMode::kAbsolute) {
    ea = d.imm;
  } else {
    const std::uint32_t base = s.r[d.rs1];
    lanai::Flags f = s.f;
    const std::uint32_t k = d.rrm ? lanai::alu::op(d.alu, base, s.r[d.rs2], f, false) : base + d.imm;
    ea = (d.mode == lanai::AddrMode::kOffset || d.mode == lanai::AddrMode::kPre) ? k : base;
  }
  const std::uint32_t w = static_cast<std::uint32_t>(d.width);
  const bool store = d.op == lanai::Op::kStore;
  const WatchKind kind = store ? WatchKind::kWrite : WatchKind::kRead;
  bool hit = false;
  for (const auto& wp : wps_)
    hit = hit || ((static_cast<unsigned>(wp.kind) & static_cast<unsigned>(kind)) && ea < wp.lo + wp.len && wp.lo < ea + w);
  if (!hit) return;
  access_ = Access{true, ea, w, store, d.to_pc ? std::uint8_t{0} : d.rd, {}, 0};
  if (store) access_.value = s.r[d.rd] & (w == 4 ? 0xFFFFFFFFu : (1u << (8 * w)) - 1);
  if (!is_mmio(ea)) {
    access_.before.resize(w);
    read_memory(ea, access_.before.data(), w);
  }
}

void DebugEngine::check_watchpoints(const lanai::CpuState& s) {
  const Access a = access_;
  access_.pending = false;
  std::vector<std::uint8_t> now(a.width);
  const bool mmio = is_mmio(a.ea);
  if (!mmio) read_memory(a.ea, now.data(), a.width);
  const std::uint64_t value = mmio ? (a.store ? a.value : (a.rd ? s.r[a.rd] : 0)) : be_value(now);
  const bool changed = !mmio && now != a.before;
  const WatchKind kind = a.store ? WatchKind::kWrite : WatchKind::kRead;
  for (auto& w : wps_) {
    if (!(static_cast<unsigned>(w.kind) & static_cast<unsigned>(kind)) || !(a.ea < w.lo + w.len && w.lo < a.ea + a.width)) continue;
    // `watch` (write only) fires when SRAM changes, as in GDB; rwatch/awatch and registers on every access.
    if (w.kind == WatchKind::kWrite && !mmio && !changed) continue;
    std::string detail;
    if (changed) {
      for (std::uint32_t i = 0; i < a.width; ++i)
        if (now[i] != a.before[i] && a.ea + i >= w.lo && a.ea + i < w.lo + w.len)
          detail += fmt::format(" [+{}] 0x{:02x} -> 0x{:02x}", a.ea + i - w.lo, a.before[i], now[i]);
      if (!w.mmio) read_memory(w.lo, w.old.data(), w.len);
    } else {
      detail = fmt::format(" {} bytes at [+{}] = 0x{:0{}x}{}", a.width, a.ea - w.lo, value, 2 * a.width, a.store ? " (unchanged)" : "");
      if (mmio && a.store) detail = fmt::format(" {} bytes at [+{}] = 0x{:0{}x}", a.width, a.ea - w.lo, value, 2 * a.width);
    }
    ++w.hits;
    StopEvent ev = event(StopReason::kWatchpoint, w.id,
                         fmt::format("watchpoint {} ({}) {} by the {} at {}:{}", w.id, w.what, a.store ? "written" : "read",
                                     a.store ? "store" : "load", describe(s.r[kPc]), detail));
    ev.access = kind;
    ev.addr = a.ea;
    ev.width = a.width;
    ev.old_value = mmio ? value : be_value(a.before);
    ev.new_value = value;
    in_after_ = true;
    report(ev);
    in_after_ = false;
    return;
  }
}

// ---- registers and memory ----

std::uint32_t DebugEngine::pc() const { return core_.state().pc; }

std::uint32_t DebugEngine::reg(unsigned r) const {
  if (r == kPc) return pc();
  if (r >= 32) throw UserError(fmt::format("no register r{}", r));
  return core_.state().r[r];
}

void DebugEngine::set_reg(unsigned r, std::uint32_t v) {
  if (r >= 32) throw UserError(fmt::format("no register r{}", r));
  if (r == lanai::kR0 || r == lanai::kR1) throw UserError(fmt::format("{} is a constant register", lanai::reg_name(r)));
  if (r == kPc) throw UserError("pc cannot be set by the debugger (the instruction at pc is already fetched)");
  core_.debug_state().r[r] = v;
}

unsigned DebugEngine::read_memory(std::uint32_t addr, std::uint8_t* buf, unsigned n) { return core_.debug_read(addr, buf, n); }

unsigned DebugEngine::write_memory(std::uint32_t addr, const std::uint8_t* buf, unsigned n) { return core_.debug_write(addr, buf, n); }

std::uint32_t DebugEngine::read32(std::uint32_t addr) {
  std::uint8_t b[4] = {0, 0, 0, 0};
  if (read_memory(addr, b, 4) != 4) throw UserError(fmt::format("cannot read memory at 0x{:08x}", addr));
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

void DebugEngine::write_value(std::uint32_t addr, std::uint32_t v, unsigned width) {
  if (width != 1 && width != 2 && width != 4) throw UserError(fmt::format("write width {} is not 1, 2 or 4", width));
  if (width < 4 && (v >> (8 * width))) throw UserError(fmt::format("0x{:x} does not fit {} bytes", v, width));
  std::uint8_t b[4];
  for (unsigned i = 0; i < width; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * (width - 1 - i)));
  if (write_memory(addr, b, width) != width)
    throw UserError(fmt::format("cannot write {} bytes at 0x{:08x}{}", width, addr, is_mmio(addr) ? " (register windows take no debug writes)" : ""));
}

std::vector<DebugEngine::NicRegister> DebugEngine::nic_registers() {
  std::vector<NicRegister> v;
  for (const auto& r : nic::RegisterCatalog::sorted()) {
    // A read that sleeps or latches another register would change what the firmware sees next.
    const bool side_effect = r.meaning.find("sleep") != std::string::npos || r.meaning.find("latch") != std::string::npos;
    v.push_back({r.block, r.name, r.address(), nic::readable(r.access) && r.has_read && !side_effect});
  }
  return v;
}

std::uint32_t DebugEngine::read_nic_register(const NicRegister& r) {
  if (!r.readable) throw UserError(fmt::format("{} cannot be read by the debugger: its read has a side effect or it is write-only", r.name));
  std::uint32_t v = 0;
  std::string err;
  if (!core_.debug_mmio(false, r.addr, v, &err)) throw UserError(fmt::format("reading {}: {}", r.name, err));
  return v;
}

void DebugEngine::write_nic_register(const NicRegister& r, std::uint32_t v) {
  std::string err;
  if (!core_.debug_mmio(true, r.addr, v, &err)) throw UserError(fmt::format("writing {}: {}", r.name, err));
}

const DebugEngine::NicRegister* DebugEngine::nic_register_named(const std::string& name) {
  static const std::vector<NicRegister> all = nic_registers();
  for (const auto& r : all)
    if (r.name == name || r.block + "." + r.name == name) return &r;
  return nullptr;
}

// ---- symbols, lines, frames ----

const lanai::Symbol* DebugEngine::symbol_named(const std::string& name) const {
  if (const auto* s = syms_.by_name(name)) return s;
  for (const auto& s : syms_.all())
    if (short_name(s.display) == name) return &s;
  return nullptr;
}

bool DebugEngine::source_of(std::uint32_t pc, SourceLoc* loc) const {
  const LineRow* r = lines_.find(pc);
  if (!r || r->line == 0) return false;
  loc->file = lines_.files()[r->file];
  loc->line = r->line;
  return true;
}

std::uint32_t DebugEngine::eval(const std::string& e) {
  if (e.empty()) throw UserError("missing address or symbol");
  // BASE+OFFSET: an address inside an object ("frames+44", "$sp+8").
  if (const auto plus = e.rfind('+'); plus != std::string::npos && plus > 0)
    return eval(e.substr(0, plus)) + static_cast<std::uint32_t>(parse_int(e.substr(plus + 1), "offset", 0, 0xFFFFFFFFll));
  if (e[0] == '$') {
    const std::string r = e.substr(1);
    if (r == "pc") return pc();
    for (unsigned i = 0; i < 32; ++i)
      if (r == lanai::reg_name(i) || r == fmt::format("r{}", i)) return reg(i);
    throw UserError(fmt::format("unknown register '{}'", e));
  }
  if (std::isdigit(static_cast<unsigned char>(e[0]))) return static_cast<std::uint32_t>(parse_int(e, "address", 0, 0xFFFFFFFFll));
  if (const auto* s = symbol_named(e)) return s->addr;
  if (const auto* r = nic_register_named(e)) return r->addr;
  throw UserError(fmt::format("no symbol '{}' in the image", e));
}

std::uint32_t DebugEngine::function_start(std::uint32_t pc, std::uint32_t* end) const {
  const lanai::Symbol* f = funcs_.find(pc);
  if (!f) {
    *end = pc + 4;
    return pc;
  }
  *end = f->size ? f->addr + f->size : pc + 4;
  return f->addr;
}

std::string DebugEngine::describe(std::uint32_t pc, std::uint32_t line_pc) const {
  const std::string w = lines_.where(line_pc);
  return fmt::format("0x{:08x} <{}>{}", pc, funcs_.describe(pc), w.empty() ? "" : " " + w);
}

// The frame's S (the caller's sp before it pushed the return address) less 4: where the return
// address is. Inside the prologue fp still belongs to the caller.
std::uint32_t DebugEngine::sp_at_entry(std::uint32_t pc, std::uint32_t sp, std::uint32_t fp) {
  std::uint32_t end = 0;
  const std::uint32_t start = function_start(pc, &end);
  const bool framed = read32(start) == kPushFp;
  if (framed && pc == start) return sp;
  if (framed && pc == start + 4) return sp + 4;
  return fp - 4;
}

std::vector<DebugEngine::Frame> DebugEngine::frames() {
  std::vector<Frame> out;
  const auto& r = core_.state().r;
  std::uint32_t pc = this->pc(), sp_entry = sp_at_entry(pc, r[kSp], r[kFp]);
  std::uint32_t end = 0;
  const std::uint32_t start = function_start(pc, &end);
  std::uint32_t caller_fp = (pc == start || pc == start + 4) ? r[kFp] : 0;
  const auto& prog = core_.program();
  // Before crt0 has set up the stack (at entry fp is 0) the saved words lie outside memory:
  // the chain ends there instead of failing.
  const auto peek = [this](std::uint32_t addr, std::uint32_t& v) {
    std::uint8_t b[4] = {0, 0, 0, 0};
    if (read_memory(addr, b, 4) != 4) return false;
    v = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
    return true;
  };
  for (int depth = 0; depth < 64; ++depth) {
    out.push_back({pc, depth ? pc - 4 : pc, sp_entry + 4, sp_entry});  // a caller's line is the call's
    std::uint32_t ra = 0;
    if ((!caller_fp && !peek(sp_entry - 4, caller_fp)) || !peek(sp_entry, ra)) break;
    // The chain ends outside the code or where a frame does not lie above this one (crt0's).
    if (ra < prog.code_lo || ra >= prog.code_hi || caller_fp <= sp_entry + 4) break;
    pc = ra;
    sp_entry = caller_fp - 4;
    caller_fp = 0;
  }
  return out;
}

std::vector<DebugEngine::DisasmLine> DebugEngine::disassemble(std::uint32_t lo, std::uint32_t hi) {
  const auto& prog = core_.program();
  std::vector<DisasmLine> v;
  for (std::uint64_t a = std::max(prog.code_lo, lo & ~3u); a < std::min(prog.code_hi, hi); a += 4) {
    const auto addr = static_cast<std::uint32_t>(a);
    const std::uint32_t w = read32(addr);
    v.push_back({addr, w, funcs_.describe(addr), lanai::disassemble_pretty(w, addr)});
  }
  return v;
}

// ---- session ----

DebugEngine& DebugSession::attach(nic::LanaiCore& core, const Image& image, int node) {
  engines_.push_back(std::make_unique<DebugEngine>(core, image, node, fe_, this));
  engines_.back()->set_stop_at_entry(engines_.size() == 1);
  return *engines_.back();
}

DebugEngine* DebugSession::engine(int node) {
  for (auto& e : engines_)
    if (e->node() == node) return e.get();
  return nullptr;
}

void DebugSession::resumed(DebugEngine& which) {
  for (auto& e : engines_)
    if (e.get() != &which) e->resume_others_continue();
}

void DebugSession::detach_all() {
  for (auto& e : engines_) e->detach();
}

}  // namespace sanvp::fw
