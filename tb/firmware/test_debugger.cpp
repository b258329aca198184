// Issue 20 parts 1-2: `sanvp fw debug IMAGE --commands FILE` on debug/frames.cpp (built with -g).
// Expected addresses and lines come from the map file, llvm-dwarfdump and the source's LINE:
// markers, never from an earlier run.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "tb/firmware/dwarf_lines.hpp"
#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

const std::string kSrc = std::string(FW_SOURCE_DIR) + "/debug/frames.cpp";
const std::string kImg = std::string(FW_BIN_DIR) + "/dbg_fw_frames.img";
const std::string kMap = std::string(FW_BIN_DIR) + "/dbg_fw_frames.map";
const std::string kElf = std::string(FW_BIN_DIR) + "/dbg_fw_frames.elf";

int line_of(const std::string& tag) {
  std::istringstream in(slurp(kSrc));
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find("// LINE:" + tag) != std::string::npos) return n;
  FAIL("no marker " << tag);
  return 0;
}

std::uint32_t sym_addr(const std::string& name) {
  std::smatch m;
  const std::string map = slurp(kMap);
  REQUIRE(std::regex_search(map, m, std::regex("\n  0x([0-9a-f]{8}) +\\d+ F " + name + "\n")));
  return static_cast<std::uint32_t>(std::stoul(m[1], nullptr, 16));
}

// The lowest is_stmt address of a source line, from llvm-dwarfdump.
std::uint32_t line_addr(int line) { return sanvp::test::first_stmt_addr(kElf, line); }

sanvp::test::Proc debug(const std::string& commands, const std::string& extra = "") {
  const std::string f = "/tmp/sanvp_dbgcmd_" + std::to_string(getpid());
  {
    std::ofstream o(f);
    o << commands;
  }
  auto p = run(sanvp::test::sanvp_bin() + " fw debug " + kImg + " --commands " + f + " " + extra);
  std::remove(f.c_str());
  return p;
}

// The "stopped:" reports of a session, in order.
std::vector<std::string> stops(const std::string& out) {
  std::vector<std::string> v;
  const std::regex re(R"(stopped: ([^\n]*)\n  at ([^\n]*)\n)");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it) v.push_back((*it)[1].str() + " @ " + (*it)[2].str());
  return v;
}

}  // namespace

TEST_CASE("debugger: a breakpoint by file:line stops at the line's first statement address", "[debugger]") {
  const int line = line_of("inner_write");
  const auto p = debug(fmt::format("break frames.cpp:{}\ncontinue\ncontinue\n", line));
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  const auto s = stops(p.out);
  REQUIRE(s.size() == 2);
  CHECK(s[0].find("at entry") == 0);
  CHECK(s[1].find(fmt::format("breakpoint 1 (frames.cpp:{}) @ 0x{:08x} <inner(unsigned int)+0x", line, line_addr(line))) == 0);
  CHECK(s[1].find(fmt::format("frames.cpp:{},", line)) != std::string::npos);
  CHECK(p.out.find("result 89\n") != std::string::npos);
}

TEST_CASE("debugger: a watchpoint on a buffer fires on the store that changes it, not on other stores", "[debugger]") {
  const auto p = debug("watch g_buf\ncontinue\ncontinue\n");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find("watchpoint 1: g_buf (") != std::string::npos);
  const auto s = stops(p.out);
  REQUIRE(s.size() == 2);
  // g_buf[2] (bytes 8..11) becomes 6 * 7 = 42; the store before it (g_other) is not reported.
  CHECK(s[1].find("watchpoint 1 (g_buf) written by the store at ") == 0);
  CHECK(s[1].find(fmt::format("frames.cpp:{}: [+11] 0x00 -> 0x2a", line_of("inner_write"))) != std::string::npos);
  std::smatch m;
  REQUIRE(std::regex_search(s[1], m, std::regex("store at 0x([0-9a-f]{8})")));
  const auto dis = run(sanvp::test::sanvp_bin() + " fw disasm " + kImg);
  CHECK(std::regex_search(dis.out, std::regex("\n *" + std::string(m[1]).substr(std::string(m[1]).find_first_not_of('0')) + ": [0-9a-f ]+\tst\t")));
}

TEST_CASE("debugger: next steps over a call, step enters it past the prologue, finish returns", "[debugger]") {
  const int call = line_of("middle_call"), after = line_of("middle_after");
  const auto p = debug(fmt::format("break frames.cpp:{}\ncontinue\nnext\ncontinue\n", call));
  INFO(p.out << p.err);
  auto s = stops(p.out);
  REQUIRE(s.size() == 3);
  CHECK(s[1].find(fmt::format("frames.cpp:{},", call)) != std::string::npos);
  CHECK(s[2].find("stepped to a new line @ ") == 0);
  CHECK(s[2].find(fmt::format("<middle(unsigned int)+0x{:x}> frames.cpp:{},", line_addr(after) - sym_addr("_Z6middlej"), after)) != std::string::npos);
  const auto q = debug(fmt::format("break frames.cpp:{}\ncontinue\nstep\nfinish\ncontinue\n", call));
  INFO(q.out);
  s = stops(q.out);
  REQUIRE(s.size() == 4);
  CHECK(s[2].find(fmt::format("@ 0x{:08x} <inner(unsigned int)+0xc> frames.cpp:{},", line_addr(line_of("inner_other")), line_of("inner_other"))) != std::string::npos);
  CHECK(s[3].find("returned from the function @ ") == 0);
  CHECK(s[3].find("<middle(unsigned int)+0x") != std::string::npos);
}

TEST_CASE("debugger: backtrace through three frames names each caller's call line", "[debugger]") {
  const auto p = debug("break inner\ncontinue\nbt\ninfo registers\nprint g_buf\nx/4x g_buf\ndisassemble\ncontinue\n");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find(fmt::format("#0  0x{:08x} <inner(unsigned int)+0xc> frames.cpp:{}\n", sym_addr("_Z5innerj") + 12, line_of("inner_other"))) != std::string::npos);
  CHECK(std::regex_search(p.out, std::regex(fmt::format("\n#1  0x[0-9a-f]{{8}} <middle\\(unsigned int\\)\\+0x[0-9a-f]+> frames.cpp:{}\n", line_of("middle_call")))));
  CHECK(std::regex_search(p.out, std::regex(fmt::format("\n#2  0x[0-9a-f]{{8}} <outer\\(unsigned int\\)\\+0x[0-9a-f]+> frames.cpp:{}\n", line_of("outer_call")))));
  CHECK(std::regex_search(p.out, std::regex(fmt::format("\n#3  0x[0-9a-f]{{8}} <main\\(\\)\\+0x[0-9a-f]+> frames.cpp:{}\n", line_of("main_call")))));
  CHECK(p.out.find("r6  = 0x00000006 ") != std::string::npos);  // inner's argument: outer(5) -> middle -> inner(6)
  CHECK(p.out.find("g_buf @ 0x") != std::string::npos);
  CHECK(std::regex_search(p.out, std::regex(R"(\n=> 0x[0-9a-f]{8} <inner\(unsigned int\)\+0xc>: )")));
}

TEST_CASE("debugger: a backtrace at entry, before crt0 sets up the stack, is the one frame", "[debugger]") {
  // fp is 0 at entry, so the saved frame words would lie outside memory: the chain ends there.
  const auto p = debug("bt\ncontinue\n");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  CHECK(p.out.find(fmt::format("#0  0x{:08x} <_start>", sym_addr("_start"))) != std::string::npos);
  CHECK(p.out.find("#1 ") == std::string::npos);
  CHECK(p.out.find("error:") == std::string::npos);
  CHECK(p.out.find("result 89\n") != std::string::npos);
}

TEST_CASE("debugger: stops do not change timing (same instructions, cycles and end time as fw run)", "[debugger][timing]") {
  const auto plain = run(sanvp::test::sanvp_bin() + " fw run --stats " + kImg);
  const auto dbg = debug("break inner\nwatch g_buf\ncontinue\nbt\ncontinue\nstepi\nnext\ncontinue\n", "--stats");
  INFO(plain.err << dbg.out << dbg.err);
  CHECK(plain.rc == 0);
  CHECK(dbg.rc == 0);
  // fw run's core may run on through slice ends that fw debug's hands over (LanaiCore::may_run_on).
  auto strip = [](const std::string& e) {
    return std::regex_replace(e, std::regex(R"(, [0-9.]+ MIPS host|, \d+ handed over to the kernel)"), "");
  };
  CHECK(strip(dbg.err) == strip(plain.err));
  CHECK(dbg.out.find(plain.out) != std::string::npos);
  CHECK(stops(dbg.out).size() >= 5);
  const auto bad = debug("frobnicate\nbreak nosuchfunction\ncontinue\n");
  CHECK(bad.rc == 0);
  CHECK(bad.out.find("error: unknown command 'frobnicate'") != std::string::npos);
  CHECK(bad.out.find("error: no symbol 'nosuchfunction' in the image") != std::string::npos);
  CHECK(run(sanvp::test::sanvp_bin() + " fw debug " + kImg + " --commands /nonexistent.cmds").rc == 2);
}

TEST_CASE("debugger: stepi/step/next N take N steps as one stop, and bad counts or extra arguments are errors", "[debugger]") {
  // stepi 3 used to step one instruction; "stepi abc", "step -1", "continue 5" were taken silently.
  const auto p = debug("stepi 3\nstepi\ncontinue\n");
  INFO(p.out << p.err);
  CHECK(p.rc == 0);
  auto s = stops(p.out);
  REQUIRE(s.size() == 3);
  CHECK(s[1].find("stepped one instruction (step 3 of 3) @ ") == 0);
  CHECK(p.out.find(", 3 instructions\n") != std::string::npos);
  CHECK(p.out.find(", 4 instructions\n") != std::string::npos);  // the plain stepi after it
  const auto bad = debug("stepi abc\nstep -1\nnext 0\nstepi 99999999999999999999\ncontinue 5\nfinish now\nbt full\ncontinue\n");
  INFO(bad.out);
  CHECK(bad.rc == 0);
  CHECK(bad.out.find("error: stepi: 'abc' is not an integer\n") != std::string::npos);
  CHECK(bad.out.find("error: step: -1 is outside 1..1000000000\n") != std::string::npos);
  CHECK(bad.out.find("error: next: 0 is outside 1..1000000000\n") != std::string::npos);
  CHECK(bad.out.find("error: stepi: '99999999999999999999' is outside the 64-bit integer range\n") != std::string::npos);
  CHECK(bad.out.find("error: continue: takes no argument (got '5')\n") != std::string::npos);
  CHECK(bad.out.find("error: finish: takes no argument (got 'now')\n") != std::string::npos);
  CHECK(bad.out.find("error: bt: takes no argument (got 'full')\n") != std::string::npos);
  CHECK(stops(bad.out).size() == 1);  // none of them resumed: the session ran from entry to the end
}
