// Issue 20 parts 1-2: the firmware debugger on NICs inside a network (`sanvp run SCENARIO --debug
// NODES --debug-commands FILE`), on the messaging firmware built with -g (dbg_fw_msg). Lines come
// from the firmware source's text, addresses from llvm-dwarfdump and instructions from
// `sanvp fw disasm`, never from an earlier run.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "tb/firmware/dwarf_lines.hpp"
#include "tb/firmware/net_scenario.hpp"
#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

const std::string kImg = std::string(FW_BIN_DIR) + "/dbg_fw_msg.img";
const std::string kElf = std::string(FW_BIN_DIR) + "/dbg_fw_msg.elf";
const std::string kSrc = std::string(SANVP_SOURCE_DIR) + "/firmware/msg/msg_fw.cpp";
const std::string kTmp = "/tmp/sanvp_dbgnet_" + std::to_string(getpid());

// The line of msg_fw.cpp holding `text` (the first one).
int line_of(const std::string& text) { return sanvp::test::line_containing(kSrc, text); }

// The lowest is_stmt address of a source line, from llvm-dwarfdump.
std::uint32_t line_addr(int line) { return sanvp::test::first_stmt_addr(kElf, line); }

// The disassembly of the instruction at `pc` ("ld 8[%r9], %r3"), from `sanvp fw disasm`.
std::string insn_at(std::uint32_t pc) {
  const auto d = run(sanvp::test::sanvp_bin() + " fw disasm " + kImg);
  std::smatch m;
  REQUIRE(std::regex_search(d.out, m, std::regex(fmt::format("\n *{:x}: [0-9a-f ]+\t([^\n]*)\n", pc))));
  return m[1];
}

std::string scenario(int msgs) { return sanvp::test::write_msg_scenario(kTmp + ".yaml", kImg, msgs); }

// `sanvp run` of the scenario with the debugger on `nodes` running `commands` (none: no debugger).
sanvp::test::Proc run_net(const std::string& nodes, const std::string& commands, const std::string& report, int msgs = 3) {
  std::string cmd = sanvp::test::sanvp_bin() + " run " + scenario(msgs) + " --report " + report;
  if (!nodes.empty()) {
    const std::string f = kTmp + ".cmds";
    std::ofstream(f) << commands;
    cmd += " --debug " + nodes + " --debug-commands " + f;
  }
  return run(cmd);
}

// The stops of a session: "n1 stopped: WHY @ WHERE".
std::vector<std::string> stops(const std::string& out) {
  std::vector<std::string> v;
  const std::regex re(R"((n\d+) stopped: ([^\n]*)\n  at ([^\n]*)\n)");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it)
    v.push_back((*it)[1].str() + " " + (*it)[2].str() + " @ " + (*it)[3].str());
  return v;
}

std::uint32_t hex(const std::string& s) { return static_cast<std::uint32_t>(std::stoul(s, nullptr, 16)); }

}  // namespace

TEST_CASE("debug network: a breakpoint by file:line on node 1 stops at the line table address and node switches the core", "[debugger][network]") {
  const int line = line_of("nic::send_start(s.start, s.length, s.route);");
  const auto p = run_net("0,1", fmt::format("node 1\nbreak msg_fw.cpp:{}\ncontinue\nbt\ninfo nodes\nnode 0\nbt\ncontinue\n", line),
                         kTmp + ".json");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  const auto s = stops(p.out);
  REQUIRE(s.size() >= 2);  // the line runs once per fragment: the last `continue` stops there again
  CHECK(s[0].find("n0 at entry @ ") == 0);  // the first debugged node stops before its first instruction
  CHECK(s[1].find(fmt::format("n1 breakpoint 1 (msg_fw.cpp:{}) @ 0x{:08x} <", line, line_addr(line))) == 0);
  CHECK(s[1].find(fmt::format("msg_fw.cpp:{},", line)) != std::string::npos);
  CHECK(p.out.find("(sanvp-dbg n1) continue\n") != std::string::npos);  // the prompt names the node
  CHECK(p.out.find("(sanvp-dbg n0) bt\n") != std::string::npos);
  // While n1 is stopped, n0 is frozen inside its run (its time is listed, it is not stopped itself).
  CHECK(std::regex_search(p.out, std::regex(R"(\n  n0: running at 0x[0-9a-f]{8} <[^\n]*, t=)")));
  CHECK(std::regex_search(p.out, std::regex(R"(\n\* n1: stopped at 0x[0-9a-f]{8} <)")));
  // -O2 inlines the event handlers into main: main's frame, then crt0's.
  CHECK(std::regex_search(p.out, std::regex(fmt::format(R"(\n#0  0x{:08x} <main\(\)\+0x[0-9a-f]+> msg_fw.cpp:{}\n#1  0x[0-9a-f]{{8}} <__fw_start\+0x)", line_addr(line), line))));
  const auto bad = run_net("5", "continue\n", kTmp + ".json");
  CHECK(bad.rc == 2);
  CHECK(bad.err.find("--debug: n5 has no NIC in this run") != std::string::npos);
  std::remove((kTmp + ".json").c_str());
}

TEST_CASE("debug network: a read watchpoint fires on the load, a NIC-register watchpoint on the register store", "[debugger][network]") {
  const auto p = run_net("1", "rwatch mtu\nwatch SEND_CTRL\ncontinue\ninfo registers\ndelete 1\ncontinue\ninfo registers\ninfo breakpoints\ndelete\ncontinue\n",
                         kTmp + ".json");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  const auto s = stops(p.out);
  REQUIRE(s.size() == 3);
  CHECK(p.out.find("read watchpoint 1: (anonymous namespace)::mtu (0x") != std::string::npos);
  CHECK(p.out.find("watchpoint 2: SEND_CTRL (0x0200006c, 4 bytes)") != std::string::npos);
  // The read: a load whose destination register holds the value read, as `info registers` shows.
  std::smatch m;
  REQUIRE(std::regex_search(s[1], m, std::regex(R"(^n1 watchpoint 1 \(.*mtu.*\) read by the load at 0x([0-9a-f]{8}) <[^>]*>[^\n]*?: 4 bytes at \[\+0\] = 0x([0-9a-f]{8}) @ 0x\1)")));
  const std::uint32_t load_pc = hex(m[1]), value = hex(m[2]);
  CHECK(value == 4096);  // the host's mtu (msg.mtu default), written to the host interface before go
  const std::string ld = insn_at(load_pc);
  INFO(ld);
  REQUIRE(std::regex_search(ld, m, std::regex(R"(^ld[^%]*%r\d+[^%]*, %(r\d+))")));
  CHECK(p.out.find(fmt::format("{:<4}= 0x{:08x}", m[1].str(), value)) != std::string::npos);
  // The register store: SEND_CTRL <- 1 (start), by a store instruction.
  REQUIRE(std::regex_search(s[2], m, std::regex(R"(^n1 watchpoint 2 \(SEND_CTRL\) written by the store at 0x([0-9a-f]{8}) <[^\n]*: 4 bytes at \[\+0\] = 0x00000001 @ 0x\1)")));
  CHECK(insn_at(hex(m[1])).rfind("st", 0) == 0);
  CHECK(p.out.find("2   write watchpoint 0x0200006c+4 (SEND_CTRL), hit 1 time\n") != std::string::npos);
}

TEST_CASE("debug network: set changes the firmware's state and its result accordingly", "[debugger][network]") {
  // mtu 256 instead of the host's 4096: n1 splits each 1 KiB message into 4 fragments.
  const int line = line_of("if (!have_msg) {");
  const auto plain = run_net("", "", kTmp + "-a.json");
  const auto p = run_net("1", fmt::format("break msg_fw.cpp:{}\ncontinue\nset {{int}}mtu = 256\nprint mtu\ndelete\ncontinue\n", line), kTmp + "-b.json");
  INFO(p.out << p.err);
  CHECK(plain.rc == 0);
  CHECK(p.rc == 0);
  CHECK(p.out.find("{4 bytes at 0x") != std::string::npos);
  CHECK(std::regex_search(p.out, std::regex(R"(mtu @ 0x[0-9a-f]{8} \(4 bytes\) = 0x00000100)")));
  const std::string a = slurp(kTmp + "-a.json"), b = slurp(kTmp + "-b.json");
  // The NIC's packets sent: 3 messages x 1 fragment, then 3 x 4.
  auto sent = [](const std::string& r) {
    std::smatch m;
    REQUIRE(std::regex_search(r, m, std::regex(R"("n1"[^}]*"packets_sent": (\d+))")));
    return std::stoi(m[1]);
  };
  CHECK(sent(a) == 3);
  CHECK(sent(b) == 12);
  // A register written and read back; pc and the constant registers refuse.
  const auto q = run_net("1", "set $r9 = 0x1234\nprint $r9\nset $pc = 4\nset $r0 = 1\ncontinue\n", kTmp + ".json");
  CHECK(q.out.find("set $r9 = 0x1234\n$r9 = 0x00001234 (4660)\n(sanvp-dbg n1) print $r9\n$r9 = 0x00001234 (4660)\n") != std::string::npos);
  CHECK(q.out.find("error: pc cannot be set") != std::string::npos);
  CHECK(q.out.find("error: r0 is a constant register") != std::string::npos);
  for (const char* f : {"-a.json", "-b.json", ".json"}) std::remove((kTmp + f).c_str());
}

TEST_CASE("debug network: until/advance run to a location and tbreak stops once", "[debugger][network]") {
  // A new message (3 of them) enters the fragmenting loop at `m_host = e[0];`; advance runs on to
  // the host-DMA request of its first fragment, in the same function.
  const int take = line_of("m_host = e[0];"), queue = line_of("hdma_queue(p + kOffData, m_host + m_off, n, true, a);");
  const auto p = run_net("1", fmt::format("tbreak msg_fw.cpp:{}\ncontinue\nadvance msg_fw.cpp:{}\ninfo breakpoints\ncontinue\n", take, queue),
                         kTmp + ".json");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  const auto s = stops(p.out);
  REQUIRE(s.size() == 3);
  CHECK(s[1].find(fmt::format("n1 temporary breakpoint 1 (msg_fw.cpp:{}) @ 0x{:08x} <", take, line_addr(take))) == 0);
  CHECK(s[2].find(fmt::format("n1 reached 0x{:08x} <", line_addr(queue))) == 0);
  CHECK(s[2].find(fmt::format("msg_fw.cpp:{},", queue)) != std::string::npos);
  CHECK(p.out.find("running to 0x") != std::string::npos);
  CHECK(p.out.find("no breakpoints or watchpoints\n") != std::string::npos);  // the tbreak is gone
  std::remove((kTmp + ".json").c_str());
}

TEST_CASE("debug network: the report is byte-identical with and without breakpoints, watchpoints and stops", "[debugger][network][timing]") {
  const int take = line_of("m_host = e[0];");
  const auto plain = run_net("", "", kTmp + "-a.json");
  const auto dbg = run_net("0,1",
                           "node 1\nbreak msg_fw.cpp:" + std::to_string(take) + "\ncontinue\nbt\nnode 0\nrwatch RX_TAIL\nwatch SEND_CTRL\ncontinue\ninfo nic\n"
                           "continue\nstepi\nnext\nnode 1\nfinish\ndelete\nnode 0\ndelete\n\ncontinue\n",
                           kTmp + "-b.json");
  INFO(plain.out << plain.err << dbg.out << dbg.err);
  CHECK(plain.rc == 0);
  CHECK(dbg.rc == 0);
  CHECK(stops(dbg.out).size() >= 6);
  const std::string a = slurp(kTmp + "-a.json"), b = slurp(kTmp + "-b.json");
  CHECK(!a.empty());
  CHECK(a == b);
  for (const char* f : {"-a.json", "-b.json"}) std::remove((kTmp + f).c_str());
}
