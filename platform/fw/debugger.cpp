#include "platform/fw/debugger.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/nic/iss/disasm.hpp"

namespace sanvp::fw {

using lanai::kPc;
using Mode = DebugEngine::Mode;

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// The largest count of stepi/step/next.
constexpr std::int64_t kMaxSteps = 1000000000;

std::uint32_t parse_value(const std::string& text, const std::string& what) {
  // Negative values are two's complement words, as in GDB.
  const std::int64_t v = parse_int(trim(text), what, -0x80000000ll, 0xFFFFFFFFll);
  return static_cast<std::uint32_t>(v);
}

}  // namespace

Debugger::Debugger(std::istream& in, std::ostream& out, bool echo, bool network)
    : in_(in), out_(out), echo_(echo), network_(network), session_(*this) {}

std::string Debugger::node_tag() const { return network_ && cur_ ? fmt::format("n{} ", cur_->node()) : std::string(); }

std::string Debugger::prompt() const { return network_ && cur_ ? fmt::format("(sanvp-dbg n{}) ", cur_->node()) : "(sanvp-dbg) "; }

void Debugger::stopped(DebugEngine& e, const StopEvent& ev) {
  std::string note;
  if (repeat_step(e, ev, note)) return;
  cur_ = &e;
  if (ev.reason == StopReason::kExited) {  // nothing left to inspect on this core: no prompt
    out_ << fmt::format("{}{}{}, t={}, {} instructions\n", node_tag(), ev.text, note, format_time(ev.time), ev.instret);
    return;
  }
  if (ev.reason == StopReason::kFault) out_ << fmt::format("{}stopped: firmware fault{}\n{}", node_tag(), note, ev.text);
  else
    out_ << fmt::format("{}stopped: {}{}\n  at {}, t={}, {} instructions\n", node_tag(), ev.text, note, e.describe(ev.pc),
                        format_time(ev.time), ev.instret);
  std::string line;
  while (true) {
    out_ << prompt() << std::flush;
    if (!std::getline(in_, line)) {
      out_ << "(end of commands: detached, running to the end)\n";
      session_.detach_all();
      return;
    }
    if (echo_) out_ << line << "\n";
    line = trim(line);
    if (line.empty()) line = last_;  // GDB: an empty line repeats the last command
    else if (line[0] != '#') history_.push_back(line);
    if (!line.empty() && line[0] != '#') last_ = line;
    try {
      if (command(line)) return;
    } catch (const UserError& err) {
      out_ << "error: " << err.what() << "\n";
    }
  }
}

bool Debugger::resume(Mode m, std::uint32_t target) {
  if (cur_->lines().empty() && (m == Mode::kStep || m == Mode::kNext))
    out_ << "(no line table: the image was built without -g; stepping one instruction)\n";
  if (cur_->has_ended()) {
    // At the core's own fault stop, continue lets the run end with the fault (exit code 3).
    if (cur_->is_stopped() && m == Mode::kContinue) {
      out_ << fmt::format("{}the firmware faulted: the run ends\n", node_tag());
      return true;
    }
    throw UserError(fmt::format("n{} has stopped running (exited or faulted)", cur_->node()));
  }
  cur_->resume(m, target);
  return true;
}

// stepi/step/next N: N steps (1 without a count), shown as one stop, as in GDB.
bool Debugger::resume_steps(Mode m, const std::string& cmd, const std::string& count) {
  const std::int64_t n = count.empty() ? 1 : parse_int(count, cmd, 1, kMaxSteps);
  resume(m);
  steps_asked_ = static_cast<std::uint64_t>(n);
  steps_done_ = 0;
  step_mode_ = m;
  step_engine_ = cur_;
  return true;
}

// Takes the next step of a count without showing a stop. The last step's stop, or one that ends
// the count early (a breakpoint, a watchpoint, the end, another node), is shown with `note`:
// how many of the steps were taken.
bool Debugger::repeat_step(DebugEngine& e, const StopEvent& ev, std::string& note) {
  if (steps_asked_ <= 1) {
    steps_asked_ = 0;
    return false;
  }
  const bool step = &e == step_engine_ && ev.reason == StopReason::kStep;
  if (step) ++steps_done_;
  if (step && steps_done_ < steps_asked_ && !e.has_ended()) {
    e.resume(step_mode_, 0);
    return true;
  }
  note = step && steps_done_ == steps_asked_ ? fmt::format(" (step {} of {})", steps_done_, steps_asked_)
                                              : fmt::format(" (after {} of {} steps)", steps_done_, steps_asked_);
  steps_asked_ = 0;
  return false;
}

bool Debugger::command(const std::string& line) {
  std::istringstream ss(line);
  std::string cmd, rest;
  ss >> cmd;
  std::getline(ss, rest);
  rest = trim(rest);
  if (cmd.empty() || cmd[0] == '#') return false;
  if (cmd == "si" || cmd == "stepi") return resume_steps(Mode::kStepInsn, cmd, rest);
  if (cmd == "s" || cmd == "step") return resume_steps(Mode::kStep, cmd, rest);
  if (cmd == "n" || cmd == "next") return resume_steps(Mode::kNext, cmd, rest);
  if (cmd == "u" || cmd == "until" || cmd == "advance") return cmd_run_to(cmd, rest);
  // These take no argument; one used to be dropped without a word ("continue 5").
  static const char* const kBare[] = {"c", "continue", "finish", "detach", "quit", "q", "bt", "backtrace", "where", "disassemble", "disas",
                                      "list", "l", "history"};
  if (!rest.empty() && std::find(std::begin(kBare), std::end(kBare), cmd) != std::end(kBare))
    throw UserError(fmt::format("{}: takes no argument (got '{}')", cmd, rest));
  if (cmd == "c" || cmd == "continue") return resume(Mode::kContinue);
  if (cmd == "finish") return resume(Mode::kFinish);
  if (cmd == "detach" || cmd == "quit" || cmd == "q") {
    session_.detach_all();
    return true;
  }
  if (cmd == "b" || cmd == "break") cmd_break(rest, false);
  else if (cmd == "tbreak") cmd_break(rest, true);
  else if (cmd == "watch") cmd_watch(rest, WatchKind::kWrite);
  else if (cmd == "rwatch") cmd_watch(rest, WatchKind::kRead);
  else if (cmd == "awatch") cmd_watch(rest, WatchKind::kAccess);
  else if (cmd == "delete" || cmd == "d") cmd_delete(rest);
  else if (cmd == "set") cmd_set(rest);
  else if (cmd == "node") cmd_node(rest);
  else if (cmd == "history") {
    for (std::size_t i = 0; i < history_.size(); ++i) out_ << fmt::format("{:>5}  {}\n", i + 1, history_[i]);
  } else if (cmd == "bt" || cmd == "backtrace" || cmd == "where") backtrace();
  else if (cmd.rfind("x", 0) == 0 && (cmd.size() == 1 || cmd[1] == '/')) cmd_x(cmd.substr(std::min<std::size_t>(cmd.size(), 2)), rest);
  else if (cmd == "p" || cmd == "print") cmd_print(rest);
  else if (cmd == "info" || cmd == "i") cmd_info(rest);
  else if (cmd == "disassemble" || cmd == "disas") cmd_disassemble();
  else if (cmd == "list" || cmd == "l") cmd_list();
  else throw UserError(fmt::format("unknown command '{}' (break, tbreak, watch, rwatch, awatch, delete, continue, step, next, stepi, "
                                   "finish, until, advance, bt, info registers|breakpoints|nic|nodes, x/N, print, set, node, "
                                   "disassemble, list, history, detach)", cmd));
  return false;
}

// until LOCATION / advance LOCATION: run until the location is reached or the current frame
// returns. A bare `until` is `next` (GDB's loop form is not modelled).
bool Debugger::cmd_run_to(const std::string& cmd, const std::string& arg) {
  if (arg.empty()) {
    if (cmd == "advance") throw UserError("advance needs a location");
    return resume(Mode::kNext);
  }
  std::string what;
  const std::uint32_t addr = cur_->resolve_location(arg, &what);
  out_ << fmt::format("running to {}\n", cur_->describe(addr));
  return resume(Mode::kRunTo, addr);
}

void Debugger::cmd_break(const std::string& arg, bool temporary) {
  const int id = cur_->add_breakpoint(arg, temporary);
  for (const auto& b : cur_->breakpoints())
    if (b.id == id) out_ << fmt::format("{}{}breakpoint {} at {}\n", node_tag(), temporary ? "temporary " : "", id, cur_->describe(b.addr));
}

// watch WHERE [LEN]: WHERE is a symbol (its size), an address expression or a NIC register name.
void Debugger::cmd_watch(const std::string& arg, WatchKind kind) {
  std::istringstream ss(arg);
  std::string where, len_text;
  ss >> where >> len_text;
  if (where.empty()) throw UserError("watch needs a symbol, an address or a NIC register");
  const std::uint32_t len = len_text.empty() ? 0 : static_cast<std::uint32_t>(parse_int(len_text, "watch length", 1, 1 << 20));
  const int id = cur_->add_watchpoint(where, len, kind);
  const auto& w = cur_->watchpoints().back();
  const char* kinds[] = {"", "read ", "", "access "};
  out_ << fmt::format("{}{}watchpoint {}: {} (0x{:08x}, {} bytes)\n", node_tag(), kinds[static_cast<int>(kind)], id, w.what, w.lo, w.len);
}

void Debugger::cmd_delete(const std::string& arg) {
  if (arg.empty()) {
    cur_->remove_all();
    return;
  }
  std::istringstream ss(arg);
  std::string id;
  while (ss >> id)
    if (!cur_->remove(static_cast<int>(parse_int(id, "delete", 1, 1 << 30)))) throw UserError(fmt::format("no breakpoint or watchpoint {}", id));
}

// set $REG = V | set *ADDR = V | set {char|short|int}ADDR = V | set NIC_REGISTER = V
void Debugger::cmd_set(const std::string& arg_in) {
  std::string arg = arg_in.rfind("var ", 0) == 0 ? trim(arg_in.substr(4)) : arg_in;
  const auto eq = arg.find('=');
  if (eq == std::string::npos) throw UserError("set: expected 'set $reg = value', 'set *addr = value' or 'set {char|short|int}addr = value'");
  std::string lhs = trim(arg.substr(0, eq));
  const std::uint32_t v = parse_value(arg.substr(eq + 1), "set value");
  if (!lhs.empty() && lhs[0] == '$') {
    const std::string r = lhs.substr(1);
    for (unsigned i = 0; i < 32; ++i)
      if (r == lanai::reg_name(i) || r == fmt::format("r{}", i)) {
        cur_->set_reg(i, v);
        out_ << fmt::format("{} = 0x{:08x} ({})\n", lhs, v, static_cast<std::int32_t>(v));
        return;
      }
    throw UserError(fmt::format("unknown register '{}'", lhs));
  }
  unsigned width = 4;
  if (!lhs.empty() && lhs[0] == '{') {
    const auto close = lhs.find('}');
    if (close == std::string::npos) throw UserError(fmt::format("set: missing '}}' in '{}'", lhs));
    const std::string type = lhs.substr(1, close - 1);
    width = type == "char" || type == "u8" ? 1 : type == "short" || type == "u16" ? 2 : type == "int" || type == "u32" ? 4 : 0;
    if (!width) throw UserError(fmt::format("set: unknown type '{}' (char, short, int)", type));
    lhs = trim(lhs.substr(close + 1));
  } else if (!lhs.empty() && lhs[0] == '*') {
    lhs = trim(lhs.substr(1));
  } else if (const auto* reg = DebugEngine::nic_register_named(lhs)) {
    cur_->write_nic_register(*reg, v);
    out_ << fmt::format("{} (0x{:08x}) <- 0x{:08x}\n", reg->name, reg->addr, v);
    return;
  } else {
    throw UserError(fmt::format("set: '{}' is not a register, '*address' or a NIC register name", lhs));
  }
  const std::uint32_t addr = cur_->eval(lhs);
  cur_->write_value(addr, v, width);
  out_ << fmt::format("{{{} bytes at 0x{:08x}}} = 0x{:0{}x}\n", width, addr, v, 2 * width);
}

void Debugger::cmd_node(const std::string& arg) {
  if (arg.empty()) {
    out_ << fmt::format("inspecting n{}\n", cur_->node());
    return;
  }
  const int n = static_cast<int>(parse_int(arg, "node", 0, 1 << 20));
  DebugEngine* e = session_.engine(n);
  if (!e) throw UserError(fmt::format("n{} is not debugged (--debug names the debugged nodes)", n));
  cur_ = e;
  out_ << fmt::format("inspecting n{}: {} at {}, t={}\n", n, e->is_stopped() ? "stopped" : e->has_ended() ? "ended" : "running",
                      e->describe(e->pc()), format_time(e->time()));
}

void Debugger::backtrace() {
  const auto fr = cur_->frames();
  for (std::size_t i = 0; i < fr.size(); ++i) out_ << fmt::format("#{:<2} {}\n", i, cur_->describe(fr[i].pc, fr[i].line_pc));
}

void Debugger::cmd_x(const std::string& f, const std::string& arg) {
  const std::uint32_t n = f.empty() ? 1 : static_cast<std::uint32_t>(parse_int(f.substr(0, f.find_first_not_of("0123456789")), "x/N", 1, 4096));
  const std::uint32_t a = cur_->eval(arg) & ~3u;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i % 4 == 0) out_ << fmt::format("{}0x{:08x} <{}>:", i ? "\n" : "", a + 4 * i, cur_->symbols().describe(a + 4 * i));
    out_ << fmt::format(" 0x{:08x}", cur_->read32(a + 4 * i));
  }
  out_ << "\n";
}

void Debugger::cmd_print(const std::string& arg) {
  if (!arg.empty() && arg[0] == '$') {
    const std::uint32_t v = cur_->eval(arg);
    out_ << fmt::format("{} = 0x{:08x} ({})\n", arg, v, static_cast<std::int32_t>(v));
    return;
  }
  if (const auto* reg = DebugEngine::nic_register_named(arg); reg && !cur_->symbol_named(arg)) {
    const std::uint32_t v = cur_->read_nic_register(*reg);
    out_ << fmt::format("{} (0x{:08x}) = 0x{:08x} ({})\n", reg->name, reg->addr, v, v);
    return;
  }
  const lanai::Symbol* s = cur_->symbol_named(arg);
  if (!s) throw UserError(fmt::format("no symbol '{}' in the image", arg));
  if (s->is_function) {
    out_ << fmt::format("{} = function at {}\n", s->display, cur_->describe(s->addr));
    return;
  }
  std::string words;
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(std::max<std::uint32_t>(s->size, 4), 64); i += 4)
    words += fmt::format(" 0x{:08x}", cur_->read32(s->addr + i));
  out_ << fmt::format("{} @ 0x{:08x} ({} bytes) ={}\n", s->display, s->addr, s->size, words);
}

void Debugger::info_breakpoints() {
  for (const auto& b : cur_->breakpoints())
    out_ << fmt::format("{:<3} {}breakpoint {} ({}), hit {} time{}\n", b.id, b.temporary ? "temporary " : "", cur_->describe(b.addr), b.what,
                        b.hits, b.hits == 1 ? "" : "s");
  for (const auto& w : cur_->watchpoints())
    out_ << fmt::format("{:<3} {} watchpoint 0x{:08x}+{} ({}), hit {} time{}\n", w.id, watch_kind_name(w.kind), w.lo, w.len, w.what, w.hits,
                        w.hits == 1 ? "" : "s");
  if (cur_->breakpoints().empty() && cur_->watchpoints().empty()) out_ << "no breakpoints or watchpoints\n";
}

// Registers whose read has no side effect, read as the firmware would at this instant.
void Debugger::info_nic() {
  for (const auto& r : DebugEngine::nic_registers()) {
    if (!r.readable) continue;
    out_ << fmt::format("{:<14} 0x{:08x} = 0x{:08x}\n", r.name, r.addr, cur_->read_nic_register(r));
  }
}

void Debugger::cmd_info(const std::string& arg) {
  if (arg.rfind("b", 0) == 0 || arg.rfind("w", 0) == 0) return info_breakpoints();
  if (arg.rfind("ni", 0) == 0) return info_nic();
  if (arg.rfind("no", 0) == 0) {
    for (const auto& e : session_.engines())
      out_ << fmt::format("{} n{}: {} at {}, t={}, {} instructions\n", e.get() == cur_ ? "*" : " ", e->node(),
                          e->is_stopped() ? "stopped" : e->has_ended() ? "ended" : "running", e->describe(e->pc()), format_time(e->time()),
                          e->instret());
    return;
  }
  if (arg.rfind("r", 0) != 0) throw UserError("info registers | info breakpoints | info nic | info nodes");
  for (unsigned r = 0; r < 32; ++r) out_ << fmt::format("{:<4}= 0x{:08x}{}", lanai::reg_name(r), cur_->reg(r), r % 4 == 3 ? "\n" : "    ");
  const auto& f = cur_->cpu().f;
  out_ << fmt::format("flags: N={} Z={} V={} C={}\n", int(f.n), int(f.z), int(f.v), int(f.c));
}

void Debugger::cmd_disassemble() {
  const std::uint32_t pc = cur_->pc();
  for (const auto& l : cur_->disassemble(pc >= 24 ? pc - 24 : 0u, pc + 28))
    out_ << fmt::format("{} 0x{:08x} <{}>: {}\n", l.addr == pc ? "=>" : "  ", l.addr, l.symbol, l.text);
}

void Debugger::cmd_list() {
  DebugEngine::SourceLoc loc;
  if (!cur_->source_of(cur_->pc(), &loc)) throw UserError("no line information at pc");
  std::ifstream f(loc.file);
  if (!f) throw UserError(fmt::format("cannot open source '{}'", loc.file));
  std::string text;
  for (std::uint32_t n = 1; std::getline(f, text); ++n)
    if (n + 5 >= loc.line && n <= loc.line + 5) out_ << fmt::format("{}{:>5}  {}\n", n == loc.line ? "=>" : "  ", n, text);
}

}  // namespace sanvp::fw
