// Issue 20 part 3 in a network: `sanvp run SCENARIO --debug 0,1 --dap` (and `--dap-port 0`),
// conversations checked message by message by dap_client.py on the messaging firmware built
// with -g. Lines come from the source text and addresses from llvm-dwarfdump, never from an
// earlier run; the run's report must be byte-identical to that of a run without the debugger.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "tb/firmware/dap_script.hpp"
#include "tb/firmware/dwarf_lines.hpp"
#include "tb/firmware/net_scenario.hpp"
#include "tb/firmware/run_util.hpp"

using nlohmann::json;
using sanvp::test::run;
using sanvp::test::slurp;
using namespace sanvp::test::dap;

namespace {

const std::string kImg = std::string(FW_BIN_DIR) + "/dbg_fw_msg.img";
const std::string kElf = std::string(FW_BIN_DIR) + "/dbg_fw_msg.elf";
const std::string kSrc = std::string(SANVP_SOURCE_DIR) + "/firmware/msg/msg_fw.cpp";
const std::string kTmp = "/tmp/sanvp_dapnet_" + std::to_string(getpid());

std::string scenario() { return sanvp::test::write_msg_scenario(kTmp + ".yaml", kImg, 3); }

// The report of the scenario's run without the debugger.
std::string plain_report() {
  const auto p = run(fmt::format("{} run {} --report {}-plain.json", sanvp::test::sanvp_bin(), scenario(), kTmp));
  REQUIRE(p.rc == 0);
  const std::string r = slurp(kTmp + "-plain.json");
  std::remove((kTmp + "-plain.json").c_str());
  REQUIRE(!r.empty());
  return r;
}

}  // namespace

TEST_CASE("dap network: a source breakpoint stops node 1 as thread 2 in a running network, threads, stack, registers, continue, exit",
          "[dap][network]") {
  const int line = sanvp::test::line_containing(kSrc, "nic::send_start(s.start, s.length, s.route);");
  const std::uint32_t addr = sanvp::test::first_stmt_addr(kElf, line);
  const std::vector<json> s = {
      initialize(),
      expect_response("initialize", {{"supportsConfigurationDoneRequest", true}, {"supportsFunctionBreakpoints", true}}),
      expect_event("initialized"),
      send("setBreakpoints", {{"source", {{"path", kSrc}}}, {"breakpoints", {{{"line", line}}}}}),
      expect_response("setBreakpoints", {{"breakpoints", {{{"verified", true}, {"line", line}, {"instructionReference", hex(addr)},
                                                           {"id", {{"$save", "bp"}}}}}}}),
      // The command line fixes what runs: launch names no program.
      send("launch", {{"stopOnEntry", false}}),
      expect_response("launch"),
      send("configurationDone"),
      expect_response("configurationDone"),
      // Only n1 (the stream's sender) starts a send before it receives anything.
      expect_event("stopped", {{"reason", "breakpoint"}, {"threadId", 2}, {"allThreadsStopped", true}, {"hitBreakpointIds", {"${bp}"}}}),
      send("threads"),
      expect_response("threads", {{"threads", {{{"id", 1}, {"name", "node 0"}}, {{"id", 2}, {"name", "node 1"}}}}}),
      send("stackTrace", {{"threadId", 2}}),
      // -O2 inlines the event handlers into main: main's frame, then crt0's.
      expect_response("stackTrace", {{"stackFrames", {{{"id", {{"$save", "f0"}}}, {"name", "main()"}, {"line", line},
                                                       {"instructionPointerReference", hex(addr)}, {"source", {{"path", re("msg_fw\\.cpp$")}}}},
                                                      {{"name", re("^__fw_start")}}}}}),
      send("scopes", {{"frameId", "${f0}"}}),
      expect_response("scopes", {{"scopes", {{{"name", "Registers"}, {"variablesReference", {{"$save", "regs"}}}},
                                             {{"name", "NIC registers"}, {"variablesReference", {{"$save", "nic"}}}}}}}),
      send("variables", {{"variablesReference", "${regs}"}}),
      expect_response("variables", {{"variables", {{{"name", "r0"}, {"value", "0x00000000"}}, {{"name", "r1"}, {"value", "0xffffffff"}},
                                                   {{"name", "pc"}, {"value", hex(addr)}}}}}),
      send("variables", {{"variablesReference", "${nic}"}}),
      expect_response("variables", {{"variables", {{"$contains", {{"name", "regs.IMR"}}}}}}),
      // Node 0 is frozen inside its run while node 1 is stopped: its frames can be read too.
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"instructionPointerReference", re("^0x[0-9a-f]{8}$")}}}}}),
      send("evaluate", {{"expression", "$pc"}, {"frameId", "${f0}"}}),
      expect_response("evaluate", {{"result", re("^" + hex(addr) + " ")}}),
      // Clear it and run to the end: the run's exit code comes as `exited`.
      send("setBreakpoints", {{"source", {{"path", kSrc}}}, {"breakpoints", json::array()}}),
      expect_response("setBreakpoints", {{"breakpoints", {{"$len", 0}}}}),
      send("continue", {{"threadId", 2}}),
      expect_response("continue", {{"allThreadsContinued", true}}),
      expect_event("exited", {{"exitCode", 0}}),
      expect_event("terminated"),
      send("disconnect"),
      expect_response("disconnect"),
      {{"exit", 0}},
  };
  const std::string plain = plain_report();
  const auto p = converse_with(s, fmt::format("run {} --report {}-dap.json --debug 0,1 --dap", scenario(), kTmp), false);
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
  // Stdout carries the protocol: the summary went to stderr.
  CHECK(p.out.find("stderr: sanvp ") != std::string::npos);
  CHECK(p.out.find("scenario dbg-net | seed 1") != std::string::npos);
  CHECK(slurp(kTmp + "-dap.json") == plain);
  std::remove((kTmp + "-dap.json").c_str());
}

TEST_CASE("dap network over TCP: attach, a function breakpoint on one node, step, continue, the report is unchanged", "[dap][network]") {
  const std::vector<json> s = {
      initialize(),
      expect_response("initialize"),
      expect_event("initialized"),
      send("setFunctionBreakpoints", {{"breakpoints", {{{"name", "main"}}}}}),
      expect_response("setFunctionBreakpoints", {{"breakpoints", {{{"verified", true}, {"id", {{"$save", "bp"}}}}}}}),
      send("attach"),
      expect_response("attach"),
      send("configurationDone"),
      expect_response("configurationDone"),
      expect_event("stopped", {{"reason", "breakpoint"}, {"threadId", 2}, {"hitBreakpointIds", {"${bp}"}}}),
      send("threads"),
      expect_response("threads", {{"threads", {{"$len", 1}}}}),
      send("threads"),
      expect_response("threads", {{"threads", {{{"id", 2}, {"name", "node 1"}}}}}),
      send("stackTrace", {{"threadId", 2}}),
      expect_response("stackTrace", {{"stackFrames", {{{"name", "main()"}}}}}),
      send("next", {{"threadId", 2}, {"granularity", "instruction"}}),
      expect_response("next"),
      expect_event("stopped", {{"reason", "step"}, {"threadId", 2}}),
      send("stackTrace", {{"threadId", 1}}),  // node 0 is not debugged
      expect_response("stackTrace", re("no thread 1"), false),
      send("setFunctionBreakpoints", {{"breakpoints", json::array()}}),
      expect_response("setFunctionBreakpoints"),
      send("continue", {{"threadId", 2}}),
      expect_response("continue"),
      expect_event("exited", {{"exitCode", 0}}),
      expect_event("terminated"),
      send("disconnect"),
      expect_response("disconnect"),
      {{"exit", 0}},
  };
  const std::string plain = plain_report();
  const auto p = converse_with(s, fmt::format("run {} --report {}-tcp.json --debug 1 --dap-port 0", scenario(), kTmp), true);
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
  CHECK(slurp(kTmp + "-tcp.json") == plain);
  std::remove((kTmp + "-tcp.json").c_str());
  // Options are checked before the run (and before the protocol takes stdout): exit 2, one line.
  for (const auto& [args, why] : {std::pair{"--debug 5 --dap", "--debug: n5 has no NIC in this run"},
                                  {"--dap", "--dap needs --debug NODES"},
                                  {"--debug 1 --dap --dap-port 0", "--dap and --dap-port exclude each other"},
                                  {"--debug 1 --dap-port 70000", "--dap-port"}}) {
    const auto bad = run(fmt::format("{} run {} --report {}-bad.json {}", sanvp::test::sanvp_bin(), scenario(), kTmp, args));
    INFO(args << ": " << bad.err);
    CHECK(bad.rc == 2);
    CHECK(bad.err.find(why) != std::string::npos);
  }
  std::remove((kTmp + ".yaml").c_str());
}

TEST_CASE("dap network: msg serves both nodes, a disconnect during the run detaches and the run ends with its plain report", "[dap][network]") {
  const std::vector<json> s = {
      initialize(),
      expect_response("initialize"),
      expect_event("initialized"),
      send("setFunctionBreakpoints", {{"breakpoints", {{{"name", "main"}}}}}),
      expect_response("setFunctionBreakpoints", {{"breakpoints", {{{"verified", true}}}}}),
      send("attach"),
      expect_response("attach"),
      send("configurationDone"),
      expect_response("configurationDone"),
      // Both nodes reach main; whichever stops first, the other stops after continue.
      expect_event("stopped", {{"reason", "breakpoint"}, {"threadId", {{"$save", "first"}}}}),
      send("threads"),
      expect_response("threads", {{"threads", {{{"id", 1}, {"name", "node 0"}}, {{"id", 2}, {"name", "node 1"}}}}}),
      send("continue", {{"threadId", "${first}"}}),
      expect_response("continue"),
      expect_event("stopped", {{"reason", "breakpoint"}}),
      send("disconnect"),
      expect_response("disconnect"),
      {{"exit", 0}},
  };
  const auto plain = run(fmt::format("{} msg --sizes 64 --iterations 1 --report {}-a.json", sanvp::test::sanvp_bin(), kTmp));
  REQUIRE(plain.rc == 0);
  const auto p = converse_with(s, fmt::format("msg --sizes 64 --iterations 1 --report {}-b.json --debug 0,1 --dap", kTmp), false);
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("\nPASS\n") != std::string::npos);
  CHECK(p.out.find("stderr: scoreboard: ") != std::string::npos);  // the printed table went to stderr
  const std::string a = slurp(kTmp + "-a.json");
  CHECK(!a.empty());
  CHECK(a == slurp(kTmp + "-b.json"));
  for (const char* f : {"-a.json", "-b.json"}) std::remove((kTmp + f).c_str());
}
