// Issue 20: the terminal debugger at a firmware fault, on a bare core (`sanvp fw debug IMAGE
// --commands F`) and in a network (`sanvp run SCENARIO --debug 0 --debug-commands F`): the stop
// names the fault, pc, registers and the backtrace can be read, and whatever ends the session
// (continue, detach, the end of the commands) the run ends with the fault's exit code 3.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <unistd.h>

#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

const std::string kFault = std::string(FW_BIN_DIR) + "/fault_fw_unmapped.img";  // a load from 0x40000000 in read_nowhere()
const std::string kTmp = "/tmp/sanvp_dbgfault_" + std::to_string(getpid());

std::string commands(const std::string& text) {
  const std::string f = kTmp + ".cmds";
  std::ofstream(f) << text;
  return f;
}

// A NIC node running the faulting image beside a test endpoint.
std::string scenario() {
  const std::string f = kTmp + ".yaml";
  std::ofstream o(f);
  o << "name: dbg-fault\nseed: 1\nduration: 5us\n"
       "topology:\n  switches: [{id: 0, ports: 4}]\n  nodes: [\"0:0\", \"0:1\"]\n"
       "nodes:\n  - {id: 0, firmware: " << kFault << "}\n";
  return f;
}

sanvp::test::Proc bare(const std::string& cmds) {
  return run(fmt::format("{} fw debug {} --commands {}", sanvp::test::sanvp_bin(), kFault, commands(cmds)));
}

sanvp::test::Proc network(const std::string& cmds, const std::string& report) {
  std::string c = fmt::format("{} run {} --set nic.sram_bytes=2097152 --report {}", sanvp::test::sanvp_bin(), scenario(), report);
  if (!cmds.empty()) c += " --debug 0 --debug-commands " + commands(cmds);
  return run(c);
}

// The fault stop and what the session read there.
void check_fault_stop(const sanvp::test::Proc& p, const std::string& tag) {
  CHECK(p.out.find(tag + "stopped: firmware fault\n") != std::string::npos);
  CHECK(p.out.find("access outside mapped memory") != std::string::npos);
  std::smatch m;
  REQUIRE(std::regex_search(p.out, m, std::regex(R"(\$pc = 0x([0-9a-f]{8}))")));
  // The backtrace starts at that pc, in the faulting function; info registers shows it too.
  CHECK(std::regex_search(p.out, std::regex("\n#0  0x" + m[1].str() + R"( <read_nowhere\(unsigned int\)\+0x[0-9a-f]+>)")));
  CHECK(p.out.find("pc  = 0x" + m[1].str()) != std::string::npos);
}

}  // namespace

TEST_CASE("debug fault: a bare core stops at the fault, continue, detach or the end of the commands exit with 3", "[debugger][fault]") {
  const std::string inspect = "continue\nprint $pc\nbt\ninfo registers\n";
  const auto c = bare(inspect + "stepi\ncontinue\n");
  INFO(c.out << c.err);
  check_fault_stop(c, "");
  CHECK(c.out.find("error: n0 has stopped running (exited or faulted)") != std::string::npos);  // no stepping past a fault
  CHECK(c.out.find("the firmware faulted: the run ends\n") != std::string::npos);
  CHECK(c.rc == 3);
  CHECK(c.err.find("access outside mapped memory") != std::string::npos);  // the usual fault report
  const auto d = bare(inspect + "detach\n");
  INFO(d.out << d.err);
  check_fault_stop(d, "");
  CHECK(d.rc == 3);
  const auto e = bare(inspect);
  CHECK(e.out.find("(end of commands: detached, running to the end)") != std::string::npos);
  CHECK(e.rc == 3);
  std::remove((kTmp + ".cmds").c_str());
}

TEST_CASE("debug fault: in a network the fault stops the node, continue ends the run with 3 and the same report", "[debugger][fault][network]") {
  const auto plain = network("", kTmp + "-a.json");
  CHECK(plain.rc == 3);
  const auto p = network("continue\nprint $pc\nbt\ninfo registers\ncontinue\n", kTmp + "-b.json");
  INFO(p.out << p.err);
  check_fault_stop(p, "n0 ");
  CHECK(p.out.find("n0 the firmware faulted: the run ends\n") != std::string::npos);
  CHECK(p.rc == 3);
  const auto d = network("continue\ndetach\n", kTmp + "-c.json");
  CHECK(d.out.find("n0 stopped: firmware fault\n") != std::string::npos);
  CHECK(d.rc == 3);
  const std::string a = slurp(kTmp + "-a.json");
  CHECK(a.find("\"status\": \"fault\"") != std::string::npos);
  CHECK(a == slurp(kTmp + "-b.json"));
  CHECK(a == slurp(kTmp + "-c.json"));
  for (const char* f : {"-a.json", "-b.json", "-c.json", ".yaml", ".cmds"}) std::remove((kTmp + f).c_str());
}
