// Issue 20 part 1: a watchpoint on SRAM fires when a DMA engine changes it, not only on the
// core's own stores. A real receive: node 0 of a 2-node messaging run watches its first receive
// buffer; the stop names the receive DMA, the byte it landed and the simulated time it landed
// at; the run's report is byte-identical with and without the watchpoint.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "tb/firmware/net_scenario.hpp"
#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

const std::string kImg = std::string(FW_BIN_DIR) + "/dbg_fw_msg.img";
const std::string kSrc = std::string(SANVP_SOURCE_DIR) + "/firmware/msg/msg_fw.cpp";
const std::string kTmp = "/tmp/sanvp_dmawatch_" + std::to_string(getpid());

// The line of msg_fw.cpp holding `text` (the first one).
int line_of(const std::string& text) { return sanvp::test::line_containing(kSrc, text); }

// n1 streams 2 messages of 1 KiB to n0 over one switch; nothing else on the network.
std::string scenario() {
  const std::string f = kTmp + ".yaml";
  std::ofstream o(f);
  o << "name: dma-watch\nseed: 1\nduration: 5us\n"
       "topology:\n  switches: [{id: 0, ports: 4}]\n  nodes: [\"0:0\", \"0:1\"]\n"
       "nodes:\n"
    << "  - {id: 0, firmware: " << kImg << ", host: {app: sink}}\n"
    << "  - {id: 1, firmware: " << kImg << ", host: {app: stream, args: [0, 1K, 2]}}\n";
  return f;
}

sanvp::test::Proc run_net(const std::string& commands, const std::string& report) {
  std::string cmd = sanvp::test::sanvp_bin() + " run " + scenario() + " --report " + report;
  if (!commands.empty()) {
    const std::string f = kTmp + ".cmds";
    std::ofstream(f) << commands;
    cmd += " --debug 0 --debug-commands " + f;
  }
  return run(cmd);
}

}  // namespace

TEST_CASE("debug network: a watchpoint on a receive buffer stops at the receive DMA's write", "[debugger][network][dma]") {
  // The buffer's address: rx_mem[0] once the firmware has set up its receive ring (the first
  // word `print` shows). The heap is deterministic, so a second run has the same buffer.
  const auto probe = run_net(fmt::format("break msg_fw.cpp:{}\ncontinue\nprint rx_mem\ndelete\ncontinue\n", line_of("nic::rx_enable();")),
                             kTmp + "-p.json");
  INFO(probe.out << probe.err);
  REQUIRE(probe.rc == 0);
  std::smatch m;
  REQUIRE(std::regex_search(probe.out, m, std::regex(R"(rx_mem @ 0x[0-9a-f]+ \(\d+ bytes\) = 0x([0-9a-f]{8}))")));
  const std::uint32_t buf = static_cast<std::uint32_t>(std::stoul(m[1], nullptr, 16));
  REQUIRE(buf != 0);

  const auto plain = run_net("", kTmp + "-a.json");
  const auto dbg = run_net(fmt::format("watch 0x{:x} 16\ncontinue\ndelete\ncontinue\n", buf), kTmp + "-b.json");
  INFO(plain.out << plain.err << dbg.out << dbg.err);
  REQUIRE(plain.rc == 0);
  REQUIRE(dbg.rc == 0);
  // The first change is the packet's first byte (the message type's high byte, 0x05), landed
  // by the receive DMA at the instant its flit was consumed: the stop's time.
  const std::regex re(fmt::format(R"(n0 stopped: watchpoint 1 \(0x{0:x}\) written by RECV_DMA at t=([^,]+), 0x{0:08x}\.\.0x{0:08x}: \[\+0\] 0x00 -> 0x05\n  at [^\n]*, t=([^,]+),)", buf));
  REQUIRE(std::regex_search(dbg.out, m, re));
  CHECK(m[1] == m[2]);
  CHECK(m[1] != "0 s");
  // Watching changes nothing the simulation does.
  const std::string a = slurp(kTmp + "-a.json"), b = slurp(kTmp + "-b.json");
  CHECK(!a.empty());
  CHECK(a == b);
  for (const char* f : {"-a.json", "-b.json", "-p.json", ".yaml", ".cmds"}) std::remove((kTmp + f).c_str());
}
