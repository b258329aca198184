// Issue 20: the DAP server at a firmware fault, on a bare core (`sanvp fw debug IMAGE --dap`) and
// in a network (`sanvp run SCENARIO --debug 0 --dap`): the stop names the fault, pc and registers
// can be read, and continue or disconnect at the fault stop ends the run with exit code 3.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

#include "tb/firmware/dap_script.hpp"
#include "tb/firmware/run_util.hpp"

using nlohmann::json;
using sanvp::test::run;
using namespace sanvp::test::dap;

namespace {

const std::string kFault = std::string(FW_BIN_DIR) + "/fault_fw_unmapped.img";  // a load from 0x40000000 in read_nowhere()
const std::string kTmp = "/tmp/sanvp_dapfault_" + std::to_string(getpid());

// A NIC node running the faulting image beside a test endpoint.
std::string scenario() {
  const std::string f = kTmp + ".yaml";
  std::ofstream o(f);
  o << "name: dbg-fault\nseed: 1\nduration: 5us\n"
       "topology:\n  switches: [{id: 0, ports: 4}]\n  nodes: [\"0:0\", \"0:1\"]\n"
       "nodes:\n  - {id: 0, firmware: " << kFault << "}\n";
  REQUIRE(o.good());
  return f;
}

// Up to the fault stop: the stop names the fault, frame 0 is read_nowhere, pc and registers read.
std::vector<json> to_the_fault(bool network) {
  std::vector<json> s = {
      initialize(),
      expect_response("initialize"),
      expect_event("initialized"),
      network ? send("attach") : send("launch", {{"program", kFault}}),
      expect_response(network ? "attach" : "launch"),
      send("configurationDone"),
      expect_response("configurationDone"),
      {{"output", "access outside mapped memory"}},  // the fault report, as stderr output
      expect_event("stopped", {{"reason", "exception"}, {"threadId", 1}, {"allThreadsStopped", true},
                               {"text", re("access outside mapped memory")}}),
      send("stackTrace", {{"threadId", 1}}),
      expect_response("stackTrace", {{"stackFrames", {{{"name", re("^read_nowhere")}, {"id", {{"$save", "f0"}}},
                                                       {"instructionPointerReference", {{"$save", "pc"}}}}}}}),
      send("scopes", {{"frameId", "${f0}"}}),
      expect_response("scopes", {{"scopes", {{{"name", "Registers"}, {"variablesReference", {{"$save", "regs"}}}}}}}),
      send("variables", {{"variablesReference", "${regs}"}}),
      expect_response("variables", {{"variables", {{{"name", "r0"}, {"value", "0x00000000"}}, {{"name", "r1"}}, {{"name", "pc"}, {"value", "${pc}"}}}}}),
      send("evaluate", {{"expression", "$pc"}}),
      expect_response("evaluate", {{"result", re("^${pc} ")}}),
  };
  return s;
}

std::string args(bool network) {
  return network ? fmt::format("run {} --set nic.sram_bytes=2097152 --report {}.json --debug 0 --dap", scenario(), kTmp) : "fw debug " + kFault + " --dap";
}

}  // namespace

TEST_CASE("dap fault: continue at the fault stop ends the run with exit code 3 on a bare core and in a network", "[dap][fault]") {
  for (bool network : {false, true}) {
    std::vector<json> s = to_the_fault(network);
    s.push_back(send("continue", {{"threadId", 1}}));
    s.push_back(expect_response("continue"));
    if (network) s.push_back(expect_event("exited", {{"exitCode", 3}}));  // the run's exit code
    s.push_back(expect_event("terminated"));
    s.push_back(send("disconnect"));
    s.push_back(expect_response("disconnect"));
    s.push_back({{"exit", 3}});
    const auto p = converse_with(s, args(network), false);
    INFO((network ? "network\n" : "bare core\n") << p.out << p.err);
    CHECK(p.rc == 0);
    CHECK(p.out.find("\nPASS\n") != std::string::npos);
  }
  std::remove((kTmp + ".json").c_str());
}

TEST_CASE("dap fault: disconnect at the fault stop keeps exit code 3 on a bare core and in a network", "[dap][fault]") {
  for (bool network : {false, true}) {
    std::vector<json> s = to_the_fault(network);
    s.push_back(send("disconnect", {{"terminateDebuggee", true}}));
    s.push_back(expect_response("disconnect"));
    s.push_back({{"exit", 3}});
    const auto p = converse_with(s, args(network), false);
    INFO((network ? "network\n" : "bare core\n") << p.out << p.err);
    CHECK(p.rc == 0);
    CHECK(p.out.find("\nPASS\n") != std::string::npos);
  }
  std::remove((kTmp + ".json").c_str());
  std::remove((kTmp + ".yaml").c_str());
}
