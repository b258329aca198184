#include "platform/fw/debugger.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <fmt/format.h>
#include <istream>
#include <ostream>
#include <sstream>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/nic/iss/disasm.hpp"

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

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// The name a user types for a function: "mid" for "mid(int)", "fib" for "(anonymous namespace)::fib(unsigned int)".
std::string short_name(const std::string& display) {
  std::string n = display.substr(0, display.find('('));
  const auto c = n.rfind("::");
  return c == std::string::npos ? n : n.substr(c + 2);
}

}  // namespace

Debugger::Debugger(const Image& im, std::istream& in, std::ostream& out, bool echo)
    : syms_(im.symbols), funcs_(functions_of(im)), lines_(im, "firmware image"), in_(in), out_(out), echo_(echo) {}

std::uint32_t Debugger::read32(std::uint32_t addr) const {
  std::uint8_t b[4] = {0, 0, 0, 0};
  if (core_->debug_read(addr, b, 4) != 4) throw UserError(fmt::format("cannot read memory at 0x{:08x}", addr));
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

std::uint32_t Debugger::function_start(std::uint32_t pc, std::uint32_t* end) const {
  const lanai::Symbol* f = funcs_.find(pc);
  if (!f) {
    *end = pc + 4;
    return pc;
  }
  *end = f->size ? f->addr + f->size : pc + 4;
  return f->addr;
}

std::string Debugger::describe(std::uint32_t pc, std::uint32_t line_pc) const {
  const std::string w = lines_.where(line_pc);
  return fmt::format("0x{:08x} <{}>{}", pc, funcs_.describe(pc), w.empty() ? "" : " " + w);
}

// The frame's S (the caller's sp before it pushed the return address) less 4: where the return
// address is. Inside the prologue fp still belongs to the caller.
std::uint32_t Debugger::sp_at_entry(std::uint32_t pc, std::uint32_t sp, std::uint32_t fp) const {
  std::uint32_t end = 0;
  const std::uint32_t start = function_start(pc, &end);
  const bool framed = read32(start) == kPushFp;
  if (framed && pc == start) return sp;
  if (framed && pc == start + 4) return sp + 4;
  return fp - 4;
}

std::vector<Debugger::Frame> Debugger::frames() const {
  std::vector<Frame> out;
  const auto& r = s_->r;
  std::uint32_t pc = r[kPc], sp_entry = sp_at_entry(pc, r[kSp], r[kFp]);
  std::uint32_t end = 0;
  const std::uint32_t start = function_start(pc, &end);
  std::uint32_t caller_fp = (pc == start || pc == start + 4) ? r[kFp] : 0;
  const auto& prog = core_->program();
  for (int depth = 0; depth < 64; ++depth) {
    out.push_back({pc, sp_entry + 4, sp_entry});
    if (!caller_fp) caller_fp = read32(sp_entry - 4);
    const std::uint32_t ra = read32(sp_entry);
    // The chain ends outside the code or where a frame does not lie above this one (crt0's).
    if (ra < prog.code_lo || ra >= prog.code_hi || caller_fp <= sp_entry + 4) break;
    pc = ra;
    sp_entry = caller_fp - 4;
    caller_fp = 0;
  }
  return out;
}

void Debugger::backtrace() {
  const auto fr = frames();
  // A caller's line is the call's (its return address may start the next line).
  for (std::size_t i = 0; i < fr.size(); ++i) out_ << fmt::format("#{:<2} {}\n", i, describe(fr[i].pc, i ? fr[i].pc - 4 : fr[i].pc));
}

void Debugger::before(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn&) {
  if (mode_ == Mode::kDetached) return;
  core_ = &core;
  s_ = &s;
  const std::uint32_t pc = s.r[kPc];
  if (first_) {
    first_ = false;
    stop("at entry");
  } else if (std::binary_search(bp_addrs_.begin(), bp_addrs_.end(), pc)) {
    for (const auto& b : bps_)
      if (b.addr == pc) {
        stop(fmt::format("breakpoint {} ({})", b.id, b.what));
        break;
      }
  } else if (mode_ == Mode::kStepInsn) {
    stop("stepped one instruction");
  } else if ((mode_ == Mode::kStep || mode_ == Mode::kNext || mode_ == Mode::kFinish) && should_stop_stepping(pc)) {
    stop(mode_ == Mode::kFinish ? "returned from the function" : "stepped to a new line");
  }
}

bool Debugger::should_stop_stepping(std::uint32_t pc) {
  const std::uint32_t sp = s_->r[kSp];
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

void Debugger::after(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn& d) {
  if (mode_ == Mode::kDetached || wps_.empty() || d.op != lanai::Op::kStore) return;
  core_ = &core;
  s_ = &s;
  for (auto& w : wps_) {
    std::vector<std::uint8_t> now(w.len);
    core.debug_read(w.lo, now.data(), w.len);
    if (now == w.old) continue;
    std::string diff;
    for (std::uint32_t i = 0; i < w.len; ++i)
      if (now[i] != w.old[i]) diff += fmt::format(" [+{}] 0x{:02x} -> 0x{:02x}", i, w.old[i], now[i]);
    w.old = now;
    stop(fmt::format("watchpoint {} ({}) written by the store at {}:{}", w.id, w.what, describe(s.r[kPc]), diff));
    return;
  }
}

void Debugger::stop(const std::string& why) {
  step_to_ = 0;
  out_ << fmt::format("stopped: {}\n  at {}, t={}, {} instructions\n", why, describe(s_->r[kPc]), format_time(core_->debug_time()),
                      s_->instret);
  std::string line;
  while (true) {
    out_ << "(sanvp-dbg) " << std::flush;
    if (!std::getline(in_, line)) {
      out_ << "(end of commands: detached, running to the end)\n";
      mode_ = Mode::kDetached;
      return;
    }
    if (echo_) out_ << line << "\n";
    try {
      if (command(trim(line))) return;
    } catch (const UserError& e) {
      out_ << "error: " << e.what() << "\n";
    }
  }
}

bool Debugger::resume(Mode m) {
  if (lines_.empty() && (m == Mode::kStep || m == Mode::kNext)) {
    out_ << "(no line table: the image was built without -g; stepping one instruction)\n";
    m = Mode::kStepInsn;
  }
  mode_ = m;
  const std::uint32_t pc = s_->r[kPc];
  start_pc_ = pc;
  start_sp_ = s_->r[kSp];
  const LineRow* r = lines_.find(pc);
  start_line_ = r ? r->line : 0;
  start_file_ = r ? r->file : 0;
  if (m == Mode::kFinish) {
    finish_sp_ = sp_at_entry(pc, s_->r[kSp], s_->r[kFp]);
    finish_lo_ = function_start(pc, &finish_hi_);
  }
  return true;
}

bool Debugger::command(const std::string& line) {
  std::istringstream ss(line);
  std::string cmd, rest;
  ss >> cmd;
  std::getline(ss, rest);
  rest = trim(rest);
  if (cmd.empty() || cmd[0] == '#') return false;
  if (cmd == "c" || cmd == "continue") return resume(Mode::kContinue);
  if (cmd == "si" || cmd == "stepi") return resume(Mode::kStepInsn);
  if (cmd == "s" || cmd == "step") return resume(Mode::kStep);
  if (cmd == "n" || cmd == "next") return resume(Mode::kNext);
  if (cmd == "finish") return resume(Mode::kFinish);
  if (cmd == "detach" || cmd == "quit" || cmd == "q") {
    mode_ = Mode::kDetached;
    return true;
  }
  if (cmd == "b" || cmd == "break") cmd_break(rest);
  else if (cmd == "watch") cmd_watch(rest);
  else if (cmd == "delete" || cmd == "d") {
    const auto id = static_cast<int>(parse_int(rest, "delete", 1, 1 << 30));
    bps_.erase(std::remove_if(bps_.begin(), bps_.end(), [&](const Breakpoint& b) { return b.id == id; }), bps_.end());
    wps_.erase(std::remove_if(wps_.begin(), wps_.end(), [&](const Watchpoint& w) { return w.id == id; }), wps_.end());
    bp_addrs_.clear();
    for (const auto& b : bps_) bp_addrs_.push_back(b.addr);
    std::sort(bp_addrs_.begin(), bp_addrs_.end());
  } else if (cmd == "bt" || cmd == "backtrace" || cmd == "where") backtrace();
  else if (cmd.rfind("x", 0) == 0 && (cmd.size() == 1 || cmd[1] == '/')) cmd_x(cmd.substr(std::min<std::size_t>(cmd.size(), 2)), rest);
  else if (cmd == "p" || cmd == "print") cmd_print(rest);
  else if (cmd == "info" || cmd == "i") cmd_info(rest);
  else if (cmd == "disassemble" || cmd == "disas") cmd_disassemble();
  else if (cmd == "list" || cmd == "l") cmd_list();
  else throw UserError(fmt::format("unknown command '{}' (break, watch, delete, continue, step, next, stepi, finish, bt, "
                                   "info registers|breakpoints, x/N, print, disassemble, list, detach)", cmd));
  return false;
}

const lanai::Symbol* Debugger::symbol_named(const std::string& name) const {
  if (const auto* s = syms_.by_name(name)) return s;
  for (const auto& s : syms_.all())
    if (short_name(s.display) == name) return &s;
  return nullptr;
}

std::uint32_t Debugger::eval(const std::string& e) const {
  if (e.empty()) throw UserError("missing address or symbol");
  if (e[0] == '$') {
    const std::string r = e.substr(1);
    if (r == "pc") return s_->r[kPc];
    for (unsigned i = 0; i < 32; ++i)
      if (r == lanai::reg_name(i) || r == fmt::format("r{}", i)) return s_->r[i];
    throw UserError(fmt::format("unknown register '{}'", e));
  }
  if (std::isdigit(static_cast<unsigned char>(e[0]))) return static_cast<std::uint32_t>(parse_int(e, "address", 0, 0xFFFFFFFFll));
  if (const auto* s = symbol_named(e)) return s->addr;
  throw UserError(fmt::format("no symbol '{}' in the image", e));
}

void Debugger::cmd_break(const std::string& arg) {
  std::uint32_t addr = 0;
  std::string what = arg;
  const auto colon = arg.rfind(':');
  if (!arg.empty() && arg[0] == '*') {
    addr = eval(arg.substr(1));
  } else if (colon != std::string::npos && colon + 1 < arg.size() && std::isdigit(static_cast<unsigned char>(arg[colon + 1]))) {
    if (lines_.empty()) throw UserError("the image has no line table: build it with -g");
    std::uint32_t found = 0;
    addr = lines_.address_of(arg.substr(0, colon), static_cast<std::uint32_t>(parse_int(arg.substr(colon + 1), "line", 1, 1 << 30)), &found);
    if (!addr) throw UserError(fmt::format("no code at or after {}", arg));
    what = fmt::format("{}:{}", arg.substr(0, colon), found);
  } else if (const auto* s = symbol_named(arg); s && s->is_function) {
    addr = lines_.after_prologue(s->addr, s->addr + std::max<std::uint32_t>(s->size, 4));
    what = s->display;
  } else {
    addr = eval(arg.empty() ? "$pc" : arg);
  }
  bps_.push_back({next_id_++, addr, what});
  bp_addrs_.insert(std::upper_bound(bp_addrs_.begin(), bp_addrs_.end(), addr), addr);
  out_ << fmt::format("breakpoint {} at {}\n", bps_.back().id, describe(addr));
}

void Debugger::cmd_watch(const std::string& arg) {
  std::istringstream ss(arg);
  std::string where, len_text;
  ss >> where >> len_text;
  const lanai::Symbol* s = symbol_named(where);
  const std::uint32_t lo = eval(where);
  std::uint32_t len = s && !s->is_function && s->size ? s->size : 4;
  if (!len_text.empty()) len = static_cast<std::uint32_t>(parse_int(len_text, "watch length", 1, 1 << 20));
  Watchpoint w{next_id_++, lo, len, s ? s->display : where, std::vector<std::uint8_t>(len)};
  if (core_->debug_read(lo, w.old.data(), len) != len) throw UserError(fmt::format("cannot watch 0x{:08x}+{}: not readable memory", lo, len));
  wps_.push_back(std::move(w));
  out_ << fmt::format("watchpoint {}: {} (0x{:08x}, {} bytes)\n", wps_.back().id, wps_.back().what, lo, len);
}

void Debugger::cmd_x(const std::string& f, const std::string& arg) {
  const std::uint32_t n = f.empty() ? 1 : static_cast<std::uint32_t>(parse_int(f.substr(0, f.find_first_not_of("0123456789")), "x/N", 1, 4096));
  const std::uint32_t a = eval(arg) & ~3u;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i % 4 == 0) out_ << fmt::format("{}0x{:08x} <{}>:", i ? "\n" : "", a + 4 * i, syms_.describe(a + 4 * i));
    out_ << fmt::format(" 0x{:08x}", read32(a + 4 * i));
  }
  out_ << "\n";
}

void Debugger::cmd_print(const std::string& arg) {
  if (!arg.empty() && arg[0] == '$') {
    out_ << fmt::format("{} = 0x{:08x} ({})\n", arg, eval(arg), static_cast<std::int32_t>(eval(arg)));
    return;
  }
  const lanai::Symbol* s = symbol_named(arg);
  if (!s) throw UserError(fmt::format("no symbol '{}' in the image", arg));
  if (s->is_function) {
    out_ << fmt::format("{} = function at {}\n", s->display, describe(s->addr));
    return;
  }
  std::string words;
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(std::max<std::uint32_t>(s->size, 4), 64); i += 4)
    words += fmt::format(" 0x{:08x}", read32(s->addr + i));
  out_ << fmt::format("{} @ 0x{:08x} ({} bytes) ={}\n", s->display, s->addr, s->size, words);
}

void Debugger::cmd_info(const std::string& arg) {
  if (arg.rfind("b", 0) == 0 || arg.rfind("w", 0) == 0) {
    for (const auto& b : bps_) out_ << fmt::format("{:<3} breakpoint {} ({})\n", b.id, describe(b.addr), b.what);
    for (const auto& w : wps_) out_ << fmt::format("{:<3} watchpoint 0x{:08x}+{} ({})\n", w.id, w.lo, w.len, w.what);
    return;
  }
  if (arg.rfind("r", 0) != 0) throw UserError("info registers | info breakpoints");
  for (unsigned r = 0; r < 32; ++r) {
    out_ << fmt::format("{:<4}= 0x{:08x}{}", lanai::reg_name(r), s_->r[r], r % 4 == 3 ? "\n" : "    ");
  }
  const auto& f = s_->f;
  out_ << fmt::format("flags: N={} Z={} V={} C={}\n", int(f.n), int(f.z), int(f.v), int(f.c));
}

void Debugger::cmd_disassemble() {
  const auto& prog = core_->program();
  const std::uint32_t pc = s_->r[kPc];
  const std::uint32_t lo = std::max(prog.code_lo, pc >= 24 ? pc - 24 : 0u), hi = std::min(prog.code_hi, pc + 28);
  for (std::uint32_t a = lo; a < hi; a += 4) {
    const std::uint32_t w = read32(a);
    out_ << fmt::format("{} 0x{:08x} <{}>: {}\n", a == pc ? "=>" : "  ", a, funcs_.describe(a), lanai::disassemble_pretty(w, a));
  }
}

void Debugger::cmd_list() {
  const LineRow* r = lines_.find(s_->r[kPc]);
  if (!r) throw UserError("no line information at pc");
  std::ifstream f(lines_.files()[r->file]);
  if (!f) throw UserError(fmt::format("cannot open source '{}'", lines_.files()[r->file]));
  std::string text;
  for (std::uint32_t n = 1; std::getline(f, text); ++n)
    if (n + 5 >= r->line && n <= r->line + 5) out_ << fmt::format("{}{:>5}  {}\n", n == r->line ? "=>" : "  ", n, text);
}

}  // namespace sanvp::fw
