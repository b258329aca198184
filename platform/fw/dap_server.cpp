#include "platform/fw/dap_server.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <systemc>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/nic/iss/disasm.hpp"

namespace sanvp::fw {

using dap::DapError;
using dap::hex32;
using dap::int_arg;
using dap::Json;
using dap::string_arg;

namespace {

constexpr std::int64_t kMaxFrames = 256;         // frame ids: node * kMaxFrames + index + 1
constexpr std::int64_t kMaxNodes = 1 << 20;
constexpr std::int64_t kMaxRead = 1 << 20;       // bytes per readMemory
constexpr std::int64_t kMaxDisasm = 4096;        // instructions per disassemble
enum Scope : std::int64_t { kRegisters = 0, kNicRegisters = 1 };  // variablesReference = frame id * 2 + scope

std::string flags_text(const lanai::Flags& f) { return fmt::format("N={} Z={} V={} C={}", int(f.n), int(f.z), int(f.v), int(f.c)); }

const char* dap_reason(StopReason r) {
  switch (r) {
    case StopReason::kEntry: return "entry";
    case StopReason::kBreakpoint: return "breakpoint";
    case StopReason::kWatchpoint: return "data breakpoint";
    case StopReason::kPause: return "pause";
    case StopReason::kFault: return "exception";
    default: return "step";
  }
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
  return !ea && !eb ? ca == cb : a == b;
}

}  // namespace

// ---- console ----

int DapServer::ConsoleBuf::overflow(int c) {
  if (c == traits_type::eof()) return 0;
  line_ += static_cast<char>(c);
  if (c == '\n') flush_line();
  return c;
}

int DapServer::ConsoleBuf::sync() {
  flush_line();
  return 0;
}

void DapServer::ConsoleBuf::flush_line() {
  if (line_.empty()) return;
  server_.send(dap::output_event("stdout", line_));
  line_.clear();
}

// ---- transport, reader thread and request queue ----

DapServer::DapServer(DapTransport& transport, std::string image_path, bool network)
    : t_(transport), image_path_(std::move(image_path)), network_(network) {}

DapServer::~DapServer() {
  t_.interrupt();
  if (reader_.joinable()) reader_.join();
}

void DapServer::send(Json msg) {
  std::lock_guard<std::mutex> lock(send_mu_);
  msg["seq"] = seq_++;
  t_.write(msg);
}

void DapServer::reader() {
  while (true) {
    auto m = t_.read();
    if (m.kind == DapTransport::Message::Kind::kEof) break;
    if (m.kind != DapTransport::Message::Kind::kOk) {
      send(dap::error_response(nullptr, "bad message: " + m.error));
      continue;
    }
    const Json& j = m.json;
    if (!j.is_object() || j.value("type", "") != "request" || !j.contains("command") || !j["command"].is_string() ||
        !j.contains("seq") || !j["seq"].is_number_integer()) {
      send(dap::error_response(j, "bad message: expected a request {\"seq\": N, \"type\": \"request\", \"command\": ...}"));
      continue;
    }
    const std::string cmd = j["command"];
    if (cmd == "threads") {  // fixed once the session is attached, which is before this thread starts
      send(dap::response(j, threads_body()));
      continue;
    }
    if (cmd == "pause" && !in_stop_.load()) {  // the engines' pause flag is atomic: safe while the firmware runs
      send(dap::response(j));  // first: the stopped event it causes must come after it
      for (const auto& e : session_->engines()) e->pause();
      continue;
    }
    std::lock_guard<std::mutex> lock(q_mu_);
    queue_.push_back(j);
    q_cv_.notify_one();
  }
  std::lock_guard<std::mutex> lock(q_mu_);
  eof_ = true;
  q_cv_.notify_one();
}

bool DapServer::next_request(Json& req) {
  std::unique_lock<std::mutex> lock(q_mu_);
  q_cv_.wait(lock, [&] { return !queue_.empty() || eof_; });
  if (queue_.empty()) return false;
  req = std::move(queue_.front());
  queue_.pop_front();
  return true;
}

// Serves requests until `done` (set by a handler) or the client goes away.
void DapServer::serve_until(const bool& done) {
  Json req;
  while (!done && !gone_) {
    if (!next_request(req)) {
      client_gone();
      return;
    }
    dispatch(req);
  }
}

// The client closed the stream without a disconnect: end the debuggee like a disconnect would.
void DapServer::client_gone() {
  gone_ = disconnected_ = terminate_ = true;
  if (!finished_) std::cerr << "DAP client closed the connection: ending the run\n";
  if (session_) session_->detach_all();
  if (!network_ && sc_core::sc_is_running()) sc_core::sc_stop();  // a network run goes on to its report
}

void DapServer::dispatch(const Json& req) {
  std::vector<Json> after;  // events that follow the response
  try {
    const std::string cmd = req["command"];
    Json body = handle(cmd, dap::arguments(req), after);
    send(dap::response(req, std::move(body)));
  } catch (const DapError& e) {
    send(dap::error_response(req, e.what()));
  } catch (const UserError& e) {  // the engine's: a bad location, an unreadable address
    send(dap::error_response(req, e.what()));
  }
  for (auto& ev : after) send(std::move(ev));
}

Json DapServer::handle(const std::string& cmd, const Json& args, std::vector<Json>& after) {
  if (cmd == "initialize") return on_initialize(args, after);
  if (!initialized_) throw DapError(fmt::format("'{}' before 'initialize'", cmd));
  if (cmd == "launch" || (cmd == "attach" && network_)) return on_launch(args);
  if (cmd == "attach") throw DapError("attach is not supported: use launch (the adapter runs the image it was started for)");
  if (cmd == "setBreakpoints") return on_set_breakpoints(args);
  if (cmd == "setFunctionBreakpoints") return on_set_function_breakpoints(args);
  if (cmd == "setInstructionBreakpoints") return on_set_instruction_breakpoints(args);
  if (cmd == "setExceptionBreakpoints") return Json{{"breakpoints", Json::array()}};  // faults always stop
  if (cmd == "configurationDone") {
    configured_ = true;
    ready_ = launched_;
    return Json::object();
  }
  if (cmd == "continue" || cmd == "next" || cmd == "stepIn" || cmd == "stepOut") return on_resume(cmd, args);
  if (cmd == "stackTrace") return on_stack_trace(args);
  if (cmd == "scopes") return on_scopes(args);
  if (cmd == "variables") return on_variables(args);
  if (cmd == "setVariable") return on_set_variable(args);
  if (cmd == "readMemory") return on_read_memory(args);
  if (cmd == "disassemble") return on_disassemble(args);
  if (cmd == "evaluate") return on_evaluate(args);
  if (cmd == "disconnect" || cmd == "terminate") return on_disconnect(cmd, args, after);
  if (cmd == "pause") return Json::object();  // already stopped: nothing to do
  throw DapError(fmt::format("unsupported request '{}'", cmd));
}

// ---- configuration ----

Json DapServer::threads_body() const { return Json{{"threads", threads_}}; }

bool DapServer::configure(DebugSession& session) {
  session_ = &session;
  for (const auto& e : session.engines()) threads_.push_back({{"id", e->node() + 1}, {"name", fmt::format("node {}", e->node())}});
  reader_ = std::thread([this] { reader(); });
  serve_until(ready_);
  if (disconnected_ || terminate_) return false;
  for (const auto& e : session.engines()) e->set_stop_at_entry(stop_on_entry_);
  return true;
}

Json DapServer::on_initialize(const Json& args, std::vector<Json>& after) {
  if (initialized_) throw DapError("'initialize' was already received");
  initialized_ = true;
  lines_from1_ = dap::bool_arg(args, "linesStartAt1", true);
  after.push_back(dap::event("initialized"));
  return Json{{"supportsConfigurationDoneRequest", true},
              {"supportsFunctionBreakpoints", true},
              {"supportsInstructionBreakpoints", true},
              {"supportsSteppingGranularity", true},
              {"supportsReadMemoryRequest", true},
              {"supportsDisassembleRequest", true},
              {"supportsSetVariable", true},
              {"supportsEvaluateForHovers", true},
              {"supportsTerminateRequest", true},
              {"supportTerminateDebuggee", true},
              {"supportsConditionalBreakpoints", false},
              {"supportsDataBreakpoints", false}};
}

Json DapServer::on_launch(const Json& args) {
  if (launched_) throw DapError("'launch' was already received");
  const std::string program = string_arg(args, "program");
  if (!network_ && !program.empty() && !same_file(program, image_path_))
    throw DapError(fmt::format("this adapter was started for '{}' (sanvp fw debug IMAGE --dap), not '{}'", image_path_, program));
  stop_on_entry_ = dap::bool_arg(args, "stopOnEntry", false);
  launched_ = true;
  ready_ = configured_;
  return Json::object();
}

// ---- breakpoints ----

Json DapServer::source_json(const std::string& file) const {
  return Json{{"name", std::filesystem::path(file).filename().string()}, {"path", file}};
}

Json DapServer::breakpoint_json(int dap_id, DebugEngine* e, std::uint32_t addr, const std::string& message) {
  Json b{{"id", dap_id}, {"verified", e != nullptr}};
  if (!e) {
    b["message"] = message;
    return b;
  }
  b["instructionReference"] = hex32(addr);
  DebugEngine::SourceLoc loc;
  if (e->source_of(addr, &loc)) {
    b["line"] = line_out(loc.line);
    b["source"] = source_json(loc.file);
  }
  return b;
}

void DapServer::clear_breakpoints(std::vector<int>& ids) {
  for (int id : ids) {
    for (const auto& r : bp_refs_[id])
      if (auto* e = session_->engine(r.node)) e->remove(r.id);
    bp_refs_.erase(id);
  }
  ids.clear();
}

Json DapServer::on_set_breakpoints(const Json& args) {
  const Json& src = args.contains("source") ? args["source"] : Json::object();
  const std::string path = string_arg(src, "path", "", true);
  Json wanted = args.contains("breakpoints") ? args["breakpoints"] : Json::array();
  if (!wanted.is_array()) throw DapError("argument 'breakpoints' must be an array");
  auto& ids = source_bps_[path];
  clear_breakpoints(ids);
  Json out = Json::array();
  for (const auto& w : wanted) {
    const auto asked = int_arg(w, "line", lines_from1_ ? 1 : 0, 1 << 30, 0, true) + (lines_from1_ ? 0 : 1);
    const int id = next_bp_id_++;
    DebugEngine* verified = nullptr;
    std::uint32_t addr = 0;
    std::string why = "the image has no line table: build it with -g";
    for (const auto& e : session_->engines()) {
      if (e->lines().empty()) continue;
      std::uint32_t found = 0;
      const std::uint32_t a = e->lines().address_of(path, static_cast<std::uint32_t>(asked), &found);
      if (!a) {
        why = fmt::format("no code at or after line {} of {}", asked, path);
        continue;
      }
      bp_refs_[id].push_back({e->node(), e->add_breakpoint_at(a, fmt::format("{}:{}", std::filesystem::path(path).filename().string(), found))});
      if (!verified) verified = e.get(), addr = a;
    }
    ids.push_back(id);
    out.push_back(breakpoint_json(id, verified, addr, why));
  }
  return Json{{"breakpoints", out}};
}

Json DapServer::on_set_function_breakpoints(const Json& args) {
  const Json wanted = args.contains("breakpoints") ? args["breakpoints"] : Json::array();
  if (!wanted.is_array()) throw DapError("argument 'breakpoints' must be an array");
  clear_breakpoints(function_bps_);
  Json out = Json::array();
  for (const auto& w : wanted) {
    const std::string name = string_arg(w, "name", "", true);
    const int id = next_bp_id_++;
    DebugEngine* verified = nullptr;
    std::uint32_t addr = 0;
    std::string why;
    for (const auto& e : session_->engines()) {
      try {
        std::string what;
        const std::uint32_t a = e->resolve_location(name, &what);
        bp_refs_[id].push_back({e->node(), e->add_breakpoint_at(a, what)});
        if (!verified) verified = e.get(), addr = a;
      } catch (const UserError& err) {
        why = err.what();
      }
    }
    function_bps_.push_back(id);
    out.push_back(breakpoint_json(id, verified, addr, why));
  }
  return Json{{"breakpoints", out}};
}

Json DapServer::on_set_instruction_breakpoints(const Json& args) {
  const Json wanted = args.contains("breakpoints") ? args["breakpoints"] : Json::array();
  if (!wanted.is_array()) throw DapError("argument 'breakpoints' must be an array");
  clear_breakpoints(instruction_bps_);
  Json out = Json::array();
  for (const auto& w : wanted) {
    const auto a = static_cast<std::uint32_t>(int_arg(w, "instructionReference", 0, 0xFFFFFFFFll, 0, true) + int_arg(w, "offset", -(1ll << 32), 1ll << 32, 0));
    const int id = next_bp_id_++;
    for (const auto& e : session_->engines()) bp_refs_[id].push_back({e->node(), e->add_breakpoint_at(a, hex32(a))});
    instruction_bps_.push_back(id);
    out.push_back(breakpoint_json(id, session_->engines().empty() ? nullptr : session_->engines().front().get(), a, "no core"));
  }
  return Json{{"breakpoints", out}};
}

// ---- stops and execution ----

void DapServer::stopped_event(DebugEngine& e, const StopEvent& ev) {
  Json body{{"reason", dap_reason(ev.reason)},
            {"threadId", e.node() + 1},
            {"allThreadsStopped", true},
            {"description", ev.text},
            {"text", ev.text}};
  if (ev.reason == StopReason::kBreakpoint) {
    Json hits = Json::array();
    for (const auto& [id, refs] : bp_refs_)
      for (const auto& r : refs)
        if (r.node == e.node() && r.id == ev.id) hits.push_back(id);
    body["hitBreakpointIds"] = hits;
  }
  send(dap::event("stopped", std::move(body)));
}

void DapServer::stopped(DebugEngine& e, const StopEvent& ev) {
  console_buf_.flush_line();
  if (disconnected_) {
    e.detach();
    return;
  }
  if (ev.reason == StopReason::kEntry && !stop_on_entry_) return;
  if (ev.reason == StopReason::kExited && network_) {  // one node's firmware: the run goes on
    send(dap::output_event("console", fmt::format("node {}: firmware {}\n", e.node(), ev.text)));
    return;
  }
  if (ev.reason == StopReason::kExited) {  // reported now; the run then goes on to its end
    exited_sent_ = true;
    send(dap::event("exited", {{"exitCode", ev.exit_code}}));
    return;
  }
  fault_sent_ = fault_sent_ || ev.reason == StopReason::kFault;
  if (ev.reason == StopReason::kFault) send(dap::output_event("stderr", ev.text + (ev.text.empty() || ev.text.back() == '\n' ? "" : "\n")));
  stopped_event(e, ev);
  in_stop_.store(true);
  current_ = &e;
  resumed_ = false;
  serve_until(resumed_);
  current_ = nullptr;
  in_stop_.store(false);
}

void DapServer::require_stopped(const std::string& what) const {
  if (!current_) throw DapError(fmt::format("{}: the firmware is not stopped", what));
}

DebugEngine& DapServer::engine_for_thread(const Json& args) {
  const auto tid = int_arg(args, "threadId", 1, kMaxNodes, current_ ? current_->node() + 1 : 1);
  DebugEngine* e = session_->engine(static_cast<int>(tid - 1));
  if (!e) throw DapError(fmt::format("no thread {}", tid));
  return *e;
}

Json DapServer::on_resume(const std::string& cmd, const Json& args) {
  require_stopped(cmd);
  DebugEngine& e = engine_for_thread(args);
  const bool insn = string_arg(args, "granularity") == "instruction";
  using M = DebugEngine::Mode;
  const M m = cmd == "continue" ? M::kContinue : cmd == "stepOut" ? M::kFinish : insn ? M::kStepInsn : cmd == "next" ? M::kNext : M::kStep;
  e.resume(m);
  resumed_ = true;
  return cmd == "continue" ? Json{{"allThreadsContinued", true}} : Json::object();
}

Json DapServer::on_disconnect(const std::string& cmd, const Json& args, std::vector<Json>& after) {
  const bool kill = cmd == "terminate" || dap::bool_arg(args, "terminateDebuggee", true);
  if (cmd == "disconnect") disconnected_ = true;
  terminate_ = terminate_ || kill;
  resumed_ = ready_ = true;  // leaves whichever serve loop is running
  if (session_) session_->detach_all();
  if (kill && !network_ && sc_core::sc_is_running()) sc_core::sc_stop();
  (void)after;
  return Json::object();
}

// The end of the run: the note (unless the fault stop already sent it), `exited` (when given),
// `terminated`; then serves requests until the client disconnects.
void DapServer::end_of_run(const std::string& note, const Json* exited) {
  finished_ = true;
  console_buf_.flush_line();
  if (!gone_ && !disconnected_) {
    if (!note.empty() && !fault_sent_) send(dap::output_event("stderr", note + (note.back() == '\n' ? "" : "\n")));
    if (exited) send(dap::event("exited", *exited));
    send(dap::event("terminated"));
  }
  current_ = nullptr;
  serve_until(disconnected_);
}

int DapServer::finish(const nic::LanaiCore::Result& r, const std::string& note) {
  const bool exited = r.outcome == nic::LanaiCore::Outcome::kExited;
  const Json code{{"exitCode", r.exit_code}};
  end_of_run(note, exited && !exited_sent_ ? &code : nullptr);
  if (exited) return r.exit_code <= 255 ? static_cast<int>(r.exit_code) : kExitSimError;
  // A fault stays a failure whatever the client did after it; a run the client ended is not one.
  if (r.outcome == nic::LanaiCore::Outcome::kFault) return kExitSimError;
  return terminate_ ? 0 : kExitSimError;
}

int DapServer::finish_network(int exit_code) {
  const Json code{{"exitCode", exit_code}};
  end_of_run("", &code);
  return exit_code;
}

// ---- inspection ----

DebugEngine& DapServer::engine_for_frame(std::int64_t frame_id, int* index) {
  const auto node = (frame_id - 1) / kMaxFrames;
  *index = static_cast<int>((frame_id - 1) % kMaxFrames);
  DebugEngine* e = session_->engine(static_cast<int>(node));
  if (!e) throw DapError(fmt::format("no frame {}", frame_id));
  return *e;
}

Json DapServer::on_stack_trace(const Json& args) {
  require_stopped("stackTrace");
  DebugEngine& e = engine_for_thread(args);
  const auto start = int_arg(args, "startFrame", 0, kMaxFrames, 0);
  const auto levels = int_arg(args, "levels", 0, kMaxFrames, 0);
  std::vector<DebugEngine::Frame> fr;
  try {
    fr = e.frames();
  } catch (const UserError&) {  // no frame chain yet (at entry fp is 0): the pc alone
    fr = {DebugEngine::Frame{e.pc(), e.pc(), 0, 0}};
  }
  Json out = Json::array();
  for (std::size_t i = static_cast<std::size_t>(start); i < fr.size() && i < static_cast<std::size_t>(kMaxFrames); ++i) {
    if (levels && out.size() >= static_cast<std::size_t>(levels)) break;
    // A caller is named by its call (line_pc): after a call that never returns, the return
    // address may already be the next function's first instruction.
    const lanai::Symbol* f = e.functions().find(fr[i].line_pc);
    Json j{{"id", e.node() * kMaxFrames + static_cast<std::int64_t>(i) + 1},
           {"name", f ? f->display : hex32(fr[i].pc)},
           {"instructionPointerReference", hex32(fr[i].pc)},
           {"line", 0},
           {"column", 0}};
    DebugEngine::SourceLoc loc;
    if (e.source_of(fr[i].line_pc, &loc)) {
      j["source"] = source_json(loc.file);
      j["line"] = line_out(loc.line);
      j["column"] = 1;
    }
    out.push_back(std::move(j));
  }
  return Json{{"stackFrames", out}, {"totalFrames", fr.size()}};
}

Json DapServer::on_scopes(const Json& args) {
  require_stopped("scopes");
  const auto frame = int_arg(args, "frameId", 1, kMaxNodes * kMaxFrames, 0, true);
  int index = 0;
  engine_for_frame(frame, &index);
  Json out = Json::array({{{"name", "Registers"}, {"presentationHint", "registers"}, {"variablesReference", frame * 2 + kRegisters}, {"expensive", false}}});
  if (index == 0)
    out.push_back({{"name", "NIC registers"}, {"presentationHint", "registers"}, {"variablesReference", frame * 2 + kNicRegisters}, {"expensive", false}});
  return Json{{"scopes", out}};
}

Json DapServer::on_variables(const Json& args) {
  require_stopped("variables");
  const auto ref = int_arg(args, "variablesReference", 2, kMaxNodes * kMaxFrames * 2 + 1, 0, true);
  int index = 0;
  DebugEngine& e = engine_for_frame(ref / 2, &index);
  auto var = [](const std::string& name, const std::string& value, const std::string& eval) {
    return Json{{"name", name}, {"value", value}, {"evaluateName", eval}, {"variablesReference", 0}};
  };
  Json out = Json::array();
  if (ref % 2 == kNicRegisters) {
    // Only the registers a read does not disturb (not WAIT, RTC_LO, ...).
    for (const auto& r : DebugEngine::nic_registers())
      if (r.readable) out.push_back(var(r.block + "." + r.name, hex32(e.read_nic_register(r)), r.name));
    return Json{{"variables", out}};
  }
  if (index > 0) {  // a caller's frame: only what the frame chain records
    const auto fr = e.frames();
    if (static_cast<std::size_t>(index) >= fr.size()) throw DapError(fmt::format("no frame {}", ref / 2));
    out.push_back(var("pc", hex32(fr[static_cast<std::size_t>(index)].pc), ""));
    out.push_back(var("fp", hex32(fr[static_cast<std::size_t>(index)].fp), ""));
    return Json{{"variables", out}};
  }
  for (unsigned r = 0; r < 32; ++r) out.push_back(var(lanai::reg_name(r), hex32(e.reg(r)), std::string("$") + lanai::reg_name(r)));
  out.push_back(var("flags", flags_text(e.cpu().f), ""));
  return Json{{"variables", out}};
}

Json DapServer::on_set_variable(const Json& args) {
  require_stopped("setVariable");
  const auto ref = int_arg(args, "variablesReference", 2, kMaxNodes * kMaxFrames * 2 + 1, 0, true);
  int index = 0;
  DebugEngine& e = engine_for_frame(ref / 2, &index);
  const std::string name = string_arg(args, "name", "", true);
  if (ref % 2 != kRegisters || index != 0) throw DapError("only the registers of the top frame can be set");
  const auto v = static_cast<std::uint32_t>(int_arg(args, "value", -(1ll << 31), 0xFFFFFFFFll, 0, true));
  for (unsigned r = 0; r < 32; ++r)
    if (name == lanai::reg_name(r)) {
      e.set_reg(r, v);
      return Json{{"value", hex32(e.reg(r))}};
    }
  throw DapError(fmt::format("no register '{}'", name));
}

// memoryReference (an address, a symbol, $reg) + offset, in the 32-bit address space.
std::uint32_t DapServer::memory_address(const Json& args, const char* key, std::int64_t extra) {
  const std::string ref = string_arg(args, key, "", true);
  const std::int64_t base = current_->eval(ref);
  const std::int64_t a = base + int_arg(args, "offset", -(1ll << 32), 1ll << 32, 0) + extra;
  if (a < 0 || a > 0xFFFFFFFFll) throw DapError(fmt::format("address {} + offset is outside the 32-bit address space", ref));
  return static_cast<std::uint32_t>(a);
}

Json DapServer::on_read_memory(const Json& args) {
  require_stopped("readMemory");
  const std::uint32_t a = memory_address(args, "memoryReference", 0);
  const auto count = static_cast<unsigned>(std::min<std::int64_t>(int_arg(args, "count", 0, kMaxRead, 0, true), 0x100000000ll - a));
  std::vector<std::uint8_t> buf(count);
  const unsigned n = count ? current_->read_memory(a, buf.data(), count) : 0;
  Json body{{"address", hex32(a)}, {"data", dap::base64(buf.data(), n)}};
  if (n < count) body["unreadableBytes"] = count - n;
  return body;
}

Json DapServer::on_disassemble(const Json& args) {
  require_stopped("disassemble");
  const auto count = int_arg(args, "instructionCount", 0, kMaxDisasm, 0, true);
  const auto first = int_arg(args, "instructionOffset", -kMaxDisasm * 1024, kMaxDisasm * 1024, 0);
  const std::int64_t lo = static_cast<std::int64_t>(memory_address(args, "memoryReference", 0) & ~3u) + 4 * first;
  std::map<std::int64_t, DebugEngine::DisasmLine> have;
  const std::int64_t clip_lo = std::max<std::int64_t>(lo, 0), clip_hi = std::min<std::int64_t>(lo + 4 * count, 0x100000000ll);
  if (clip_lo < clip_hi)
    for (auto& l : current_->disassemble(static_cast<std::uint32_t>(clip_lo), static_cast<std::uint32_t>(clip_hi - 1) + 1u)) have[l.addr] = l;
  Json out = Json::array();
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t a = lo + 4 * i;
    const auto it = have.find(a);
    // Outside the code (or the address space) the entry is a placeholder, as the protocol asks.
    Json j{{"address", a >= 0 && a <= 0xFFFFFFFFll ? hex32(static_cast<std::uint32_t>(a)) : "0x00000000"},
           {"instruction", it == have.end() ? "??" : it->second.text}};
    if (it != have.end()) {
      j["instructionBytes"] = fmt::format("{:08x}", it->second.word);
      if (!it->second.symbol.empty()) j["symbol"] = it->second.symbol;
      DebugEngine::SourceLoc loc;
      if (current_->source_of(static_cast<std::uint32_t>(a), &loc)) {
        j["location"] = source_json(loc.file);
        j["line"] = line_out(loc.line);
      }
    }
    out.push_back(std::move(j));
  }
  return Json{{"instructions", out}};
}

Json DapServer::on_evaluate(const Json& args) {
  require_stopped("evaluate");
  const std::string expr = string_arg(args, "expression", "", true);
  int index = 0;  // a frame names its node's engine (network runs); default: the stopped one
  DebugEngine& e = args.contains("frameId") ? engine_for_frame(int_arg(args, "frameId", 1, kMaxNodes * kMaxFrames, 0, true), &index) : *current_;
  const std::uint32_t v = e.eval(expr);
  const lanai::Symbol* s = expr.empty() || expr[0] == '$' ? nullptr : e.symbol_named(expr);
  if (s && s->is_function) return Json{{"result", fmt::format("function at {}", e.describe(s->addr))}, {"variablesReference", 0}, {"memoryReference", hex32(v)}};
  if (s) {  // a data object: its first words, like the terminal's print
    std::string words;
    for (std::uint32_t i = 0; i < std::min<std::uint32_t>(std::max<std::uint32_t>(s->size, 4), 64); i += 4) words += fmt::format(" 0x{:08x}", e.read32(s->addr + i));
    return Json{{"result", fmt::format("@ {} ({} bytes) ={}", hex32(s->addr), s->size, words)}, {"variablesReference", 0}, {"memoryReference", hex32(v)}};
  }
  return Json{{"result", fmt::format("{} ({})", hex32(v), static_cast<std::int32_t>(v))}, {"variablesReference", 0}, {"memoryReference", hex32(v)}};
}

}  // namespace sanvp::fw
