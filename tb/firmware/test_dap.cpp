// Issue 20 part 3: `sanvp fw debug IMAGE --dap` / `--dap-port 0` driven by dap_client.py, which
// checks the conversation message by message. Expected lines and addresses come from the
// source's LINE: markers, llvm-dwarfdump and the map file, never from an earlier run.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "tb/firmware/dap_script.hpp"
#include "tb/firmware/run_util.hpp"

using nlohmann::json;
using sanvp::test::run;
using sanvp::test::slurp;
using namespace sanvp::test::dap;

namespace {

const std::string kSrc = std::string(FW_SOURCE_DIR) + "/debug/frames.cpp";
const std::string kImg = std::string(FW_BIN_DIR) + "/dbg_fw_frames.img";
const std::string kElf = std::string(FW_BIN_DIR) + "/dbg_fw_frames.elf";
const std::string kExit42 = std::string(FW_BIN_DIR) + "/fault_fw_exit42.img";
const std::string kSpin = std::string(FW_BIN_DIR) + "/fault_fw_spin.img";

std::vector<std::string> source_lines() {
  std::vector<std::string> v;
  std::istringstream in(slurp(kSrc));
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

int line_of(const std::string& tag) {
  const auto v = source_lines();
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].find("// LINE:" + tag) != std::string::npos) return static_cast<int>(i + 1);
  FAIL("no marker " << tag);
  return 0;
}

// frames.cpp's is_stmt rows from llvm-dwarfdump: line -> lowest address.
std::map<int, std::uint32_t> stmt_rows() {
  const auto p = run(std::string(LLVM_DWARFDUMP) + " --debug-line " + kElf);
  std::map<int, std::uint32_t> rows;
  std::map<int, bool> is_frames;  // file index -> names frames.cpp
  std::istringstream in(p.out);
  std::string l;
  int file = -1;
  const std::regex fre(R"(file_names\[ *(\d+)\]:)"), nre(R"(name: \"([^\"]*)\")");
  const std::regex re(R"(^0x([0-9a-f]{16}) +(\d+) +\d+ +(\d+) +\d+ +\d+ +is_stmt)");
  std::smatch m;
  while (std::getline(in, l)) {
    if (std::regex_search(l, m, fre)) file = std::stoi(m[1]);
    else if (file >= 0 && std::regex_search(l, m, nre)) is_frames[file] = std::string(m[1]).find("frames.cpp") != std::string::npos;
    else if (std::regex_search(l, m, re) && is_frames[std::stoi(m[3])]) {
      const auto a = static_cast<std::uint32_t>(std::stoull(m[1], nullptr, 16));
      auto [it, fresh] = rows.emplace(std::stoi(m[2]), a);
      if (!fresh) it->second = std::min(it->second, a);
    }
  }
  REQUIRE(!rows.empty());
  return rows;
}

std::uint32_t map_addr(const std::string& img, const std::string& name_re) {
  std::smatch m;
  const std::string map = slurp(img.substr(0, img.size() - 4) + ".map");
  REQUIRE(std::regex_search(map, m, std::regex("\n  0x([0-9a-f]{8}) +\\d+ F " + name_re + "\n")));
  return static_cast<std::uint32_t>(std::stoul(m[1], nullptr, 16));
}

// Runs the client against `sanvp fw debug IMAGE TRANSPORT`.
sanvp::test::Proc converse(const std::vector<json>& script, const std::string& image, const std::string& transport) {
  return sanvp::test::dap::converse_with(script, "fw debug " + image + " " + transport, transport == "--dap-port 0");
}

}  // namespace

TEST_CASE("dap: breakpoint by line, stop at the line table's pc, stack, registers, next, continue, exit", "[dap]") {
  const auto rows = stmt_rows();
  const int other = line_of("inner_other"), write = line_of("inner_write"), call = line_of("middle_call");
  // A line without code (the first blank line after inner's body) verifies at the next line that has some.
  const auto src = source_lines();
  int blank = write;
  while (!src[static_cast<std::size_t>(blank - 1)].empty()) ++blank;
  const int blank_verified = rows.lower_bound(blank)->first;
  REQUIRE(blank_verified > blank);
  const std::vector<json> s = {
      initialize(),
      expect_response("initialize", {{"supportsConfigurationDoneRequest", true}, {"supportsFunctionBreakpoints", true},
                                     {"supportsReadMemoryRequest", true}, {"supportsSteppingGranularity", true}}),
      expect_event("initialized"),
      send("setBreakpoints", {{"source", {{"path", kSrc}}}, {"breakpoints", {{{"line", blank}}}}}),
      expect_response("setBreakpoints", {{"breakpoints", {{{"verified", true}, {"line", blank_verified}, {"instructionReference", hex(rows.at(blank_verified))}}}}}),
      // Replaces the breakpoints of that file.
      send("setBreakpoints", {{"source", {{"path", kSrc}}}, {"breakpoints", {{{"line", other}}}}}),
      expect_response("setBreakpoints", {{"breakpoints", {{{"verified", true}, {"line", other}, {"instructionReference", hex(rows.at(other))},
                                                           {"source", {{"path", re("frames\\.cpp$")}}}, {"id", {{"$save", "bp"}}}}}}}),
      send("setBreakpoints", {{"source", {{"path", "/nonexistent/elsewhere.cpp"}}}, {"breakpoints", {{{"line", 3}}}}}),
      expect_response("setBreakpoints", {{"breakpoints", {{{"verified", false}, {"message", re("no code at or after line 3")}}}}}),
      send("launch", {{"program", kImg}, {"stopOnEntry", false}}),
      expect_response("launch"),
      send("configurationDone"),
      expect_response("configurationDone"),
      expect_event("stopped", {{"reason", "breakpoint"}, {"threadId", 1}, {"hitBreakpointIds", {"${bp}"}}}),
      send("threads"),
      expect_response("threads", {{"threads", {{{"id", 1}, {"name", "node 0"}}}}}),
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"id", {{"$save", "f0"}}}, {"name", "inner(unsigned int)"}, {"line", other},
                                                       {"instructionPointerReference", hex(rows.at(other))}, {"source", {{"path", re("frames\\.cpp$")}}}},
                                                      {{"name", "middle(unsigned int)"}, {"line", call}}}}}),
      send("scopes", {{"frameId", "${f0}"}}),
      expect_response("scopes", {{"scopes", {{{"name", "Registers"}, {"variablesReference", {{"$save", "regs"}}}}}}}),
      send("variables", {{"variablesReference", "${regs}"}}),
      // inner(6): outer(5) -> middle(5) -> inner(5 + 1); r6 is the first argument register.
      expect_response("variables", {{"variables", {{{"name", "r0"}, {"value", "0x00000000"}}, {{"name", "r1"}, {"value", "0xffffffff"}},
                                                   {{"name", "pc"}, {"value", hex(rows.at(other))}}, json::object(), {{"name", "sp"}},
                                                   {{"name", "fp"}}, {{"name", "r6"}, {"value", "0x00000006"}}}}}),
      send("next", {{"threadId", 1}}),
      expect_response("next"),
      expect_event("stopped", {{"reason", "step"}, {"threadId", 1}}),
      send("stackTrace", {{"threadId", 1}, {"levels", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"line", write}, {"instructionPointerReference", hex(rows.at(write))}}}}}),
      send("evaluate", {{"expression", "g_other"}, {"context", "watch"}}),
      expect_response("evaluate", {{"result", re("= 0x00000006$")}, {"memoryReference", {{"$save", "g_other"}}}}),
      send("readMemory", {{"memoryReference", "${g_other}"}, {"count", 4}}),
      expect_response("readMemory", {{"address", "${g_other}"}, {"data", "AAAABg=="}}),  // big-endian 6
      send("evaluate", {{"expression", "$r6"}}),
      expect_response("evaluate", {{"result", "0x00000006 (6)"}}),
      send("continue", {{"threadId", 1}}),
      expect_response("continue", {{"allThreadsContinued", true}}),
      {{"output", "result 89\n"}},
      expect_event("exited", {{"exitCode", 0}}),
      expect_event("terminated"),
      send("disconnect"),
      expect_response("disconnect"),
      {{"exit", 0}},
  };
  const auto p = converse(s, kImg, "--dap");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
}

TEST_CASE("dap over TCP: stop on entry, function breakpoint without DWARF, instruction step, disassembly, exit code", "[dap]") {
  const std::uint32_t finish = map_addr(kExit42, "_ZL6finishi");
  const std::vector<json> s = {
      initialize(),
      expect_response("initialize"),
      expect_event("initialized"),
      send("launch", {{"program", kExit42}, {"stopOnEntry", true}}),
      expect_response("launch"),
      send("setFunctionBreakpoints", {{"breakpoints", {{{"name", "finish"}}, {{"name", "no_such_function"}}}}}),
      // Without a line table a function breakpoint is at the function's first instruction.
      expect_response("setFunctionBreakpoints", {{"breakpoints", {{{"verified", true}, {"instructionReference", hex(finish)}},
                                                                  {{"verified", false}, {"message", re("no_such_function")}}}}}),
      send("configurationDone"),
      expect_response("configurationDone"),
      expect_event("stopped", {{"reason", "entry"}, {"threadId", 1}}),
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"line", 0}, {"instructionPointerReference", {{"$save", "pc0"}}}}}}}),
      send("disassemble", {{"memoryReference", "${pc0}"}, {"instructionCount", 3}}),
      expect_response("disassemble", {{"instructions", {{{"address", "${pc0}"}, {"instruction", re("^[a-z]")}}, json::object(), json::object()}}}),
      send("stepIn", {{"threadId", 1}, {"granularity", "instruction"}}),
      expect_response("stepIn"),
      expect_event("stopped", {{"reason", "step"}}),
      send("continue", {{"threadId", 1}}),
      expect_response("continue"),
      expect_event("stopped", {{"reason", "breakpoint"}, {"threadId", 1}}),
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"name", re("finish")}, {"instructionPointerReference", hex(finish)}}, {{"name", re("main")}}}}}),
      send("continue", {{"threadId", 1}}),
      expect_response("continue"),
      {{"output", "finishing\n"}},
      expect_event("exited", {{"exitCode", 42}}),
      expect_event("terminated"),
      send("disconnect"),
      expect_response("disconnect"),
      {{"exit", 42}},
  };
  const auto p = converse(s, kExit42, "--dap-port 0");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("DAP server listening on 127.0.0.1:") != std::string::npos);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
}

TEST_CASE("dap: pause stops a running core, terminate ends the run", "[dap]") {
  const std::vector<json> s = {
      initialize(),
      expect_response("initialize"),
      expect_event("initialized"),
      send("launch", {{"program", kSpin}}),
      expect_response("launch"),
      send("configurationDone"),
      expect_response("configurationDone"),
      {{"sleep", 0.3}},  // the firmware is running (it never exits)
      send("pause", {{"threadId", 1}}),
      expect_response("pause"),
      expect_event("stopped", {{"reason", "pause"}, {"threadId", 1}}),
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"name", re("^main")}}}}}),
      send("pause", {{"threadId", 1}}),  // already stopped: no effect
      expect_response("pause"),
      send("terminate"),
      expect_response("terminate"),
      expect_event("terminated"),
      send("disconnect"),
      expect_response("disconnect"),
      {{"exit", 0}},
  };
  const auto p = converse(s, kSpin, "--dap --timeout 1000s");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
}

TEST_CASE("dap: malformed messages get error responses and the server carries on", "[dap]") {
  const std::string body = R"({"seq":9,"type":"request","command":"threads"})";
  const std::vector<json> s = {
      {{"raw", "Content-Length: abc\r\n\r\n{}"}},
      expect_response("", re("Content-Length"), false),
      {{"raw", "Content-Length: 99999999999\r\n\r\n"}},
      expect_response("", re("Content-Length: 99999999999 is outside"), false),
      {{"raw", "Content-Length: 5\r\n\r\n{bad}"}},
      expect_response("", re("not valid JSON"), false),
      {{"raw", "garbage\r\nContent-Length: 2\r\n\r\n[]"}},
      expect_response("", re("malformed header line 'garbage'"), false),
      expect_response("", re("expected a request"), false),
      // After a header block without a length, bytes are dropped up to the next Content-Length.
      {{"raw", "Content-Type: application/json\r\n\r\n"}},
      expect_response("", re("missing Content-Length"), false),
      // A message split across reads.
      {{"raw", fmt::format("Content-Len")}},
      {{"sleep", 0.2}},
      {{"raw", fmt::format("gth: {}\r\n\r\n{}", body.size(), body.substr(0, 10))}},
      {{"sleep", 0.2}},
      {{"raw", body.substr(10)}},
      {{"expect", {{"type", "response"}, {"command", "threads"}, {"request_seq", 9}, {"success", true}}}},
      send("stackTrace"),
      expect_response("stackTrace", re("'stackTrace' before 'initialize'"), false),
      initialize(),
      expect_response("initialize"),
      expect_event("initialized"),
      send("frobnicate"),
      expect_response("frobnicate", re("unsupported request 'frobnicate'"), false),
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", re("not stopped"), false),
      send("setBreakpoints", {{"source", {{"path", kSrc}}}, {"breakpoints", {{{"line", -5}}}}}),
      expect_response("setBreakpoints", re("'line' = -5 is out of range"), false),
      send("setBreakpoints", {{"breakpoints", json::array()}}),
      expect_response("setBreakpoints", re("missing argument 'path'"), false),
      send("launch", {{"program", "/nonexistent/other.img"}}),
      expect_response("launch", re("started for"), false),
      send("launch", {{"program", kImg}}),
      expect_response("launch"),
      send("configurationDone"),
      expect_response("configurationDone"),
      {{"output", "result 89\n"}},
      expect_event("exited", {{"exitCode", 0}}),
      expect_event("terminated"),
      {{"close", true}},  // no disconnect: the end of the stream ends the session
      {{"exit", 0}},
  };
  const auto p = converse(s, kImg, "--dap");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
  // Options are checked before the protocol starts: plain errors on stderr.
  const auto bad = run(sanvp::test::sanvp_bin() + " fw debug " + kImg + " --dap-port 70000");
  CHECK(bad.rc == 2);
  CHECK(bad.err.find("--dap-port") != std::string::npos);
}
