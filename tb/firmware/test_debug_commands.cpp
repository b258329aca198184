// Issue 20 part 2: `--debug NODES --debug-commands FILE` on the commands that run firmware in a
// network besides `sanvp run`: `msg` (its own run loop), `grim`, `fbs run`, `tdma run` and
// `tdma sync` (run_simulation).
// A scripted session breaks on a firmware symbol, prints the backtrace and continues; the
// command's report and printed results are those of a run without the debugger.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

const std::string kTmp = "/tmp/sanvp_dbgcmd_" + std::to_string(getpid());

struct Runs {
  sanvp::test::Proc plain, dbg;
  std::string plain_report, dbg_report;
};

// `sanvp ARGS` without and with the debugger on `node` running `commands`.
Runs both(const std::string& args, int node, const std::string& commands) {
  Runs r;
  r.plain = run(fmt::format("{} {} --report {}-a.json", sanvp::test::sanvp_bin(), args, kTmp));
  std::ofstream(kTmp + ".cmds") << commands;
  r.dbg = run(fmt::format("{} {} --report {}-b.json --debug {} --debug-commands {}.cmds", sanvp::test::sanvp_bin(), args, kTmp, node, kTmp));
  r.plain_report = slurp(kTmp + "-a.json");
  r.dbg_report = slurp(kTmp + "-b.json");
  for (const char* f : {"-a.json", "-b.json", ".cmds"}) std::remove((kTmp + f).c_str());
  return r;
}

// The session stopped at entry, then at the breakpoint on main, with main as frame 0.
void check_session(const Runs& r, int node) {
  const std::string n = fmt::format("n{}", node);
  CHECK(r.dbg.out.find(n + " stopped: at entry\n") != std::string::npos);
  CHECK(std::regex_search(r.dbg.out, std::regex(n + R"( stopped: breakpoint 1 \(main[^\n]*\)\n  at 0x[0-9a-f]{8} <main)")));
  CHECK(std::regex_search(r.dbg.out, std::regex(R"(\(sanvp-dbg )" + n + R"(\) bt\n#0  0x[0-9a-f]{8} <main)")));
  CHECK(!r.plain_report.empty());
  CHECK(r.plain_report == r.dbg_report);
}

const std::string kSession = "break main\ncontinue\nbt\ncontinue\n";

// Printed results without the lines that differ between any two runs: the wall-time rate and
// the report's path.
std::string stable(const std::string& out) {
  std::string keep, line;
  std::istringstream in(out);
  while (std::getline(in, line))
    if (line.find(" s wall (") == std::string::npos && line.rfind("report: ", 0) != 0) keep += line + "\n";
  return keep;
}

}  // namespace

TEST_CASE("debug commands: msg runs node 1 under the debugger with the same results", "[debugger][network]") {
  const Runs r = both("msg --sizes 64 --iterations 1", 1, kSession);
  INFO(r.plain.out << r.plain.err << r.dbg.out << r.dbg.err);
  CHECK(r.plain.rc == 0);
  CHECK(r.dbg.rc == 0);
  check_session(r, 1);
  CHECK(r.dbg.out.find(r.plain.out) != std::string::npos);  // the printed table follows the session
  const auto bad = run(sanvp::test::sanvp_bin() + " msg --sizes 64 --report " + kTmp + "-x.json --debug 2");
  CHECK(bad.rc == 2);
  CHECK(bad.err == "error: --debug: no node 2 in this run (nodes 0..1)\n");
}

TEST_CASE("debug commands: grim and fbs run under the debugger with the same results, grim --bench refuses it", "[debugger][network]") {
  const Runs g = both("grim --nodes 2 --messages 4 --sizes 1:256", 0, kSession);
  INFO(g.plain.out << g.plain.err << g.dbg.out << g.dbg.err);
  CHECK(g.plain.rc == 0);
  CHECK(g.dbg.rc == 0);
  check_session(g, 0);
  CHECK(g.dbg.out.find(g.plain.out) != std::string::npos);
  const Runs f = both("fbs run single ports=4", 2, kSession);
  INFO(f.plain.out << f.plain.err << f.dbg.out << f.dbg.err);
  CHECK(f.plain.rc == 0);
  CHECK(f.dbg.rc == 0);
  check_session(f, 2);
  for (const auto& [args, why] : {std::pair{"grim --bench --debug 0", "error: --debug: not with --bench"},
                                  {"grim --nodes 2 --debug 2", "error: --debug: no node 2 in this run (nodes 0..1)"},
                                  {"fbs run single ports=4 --debug 9", "error: --debug: n9 has no NIC in this run"},
                                  {"msg --dap", "error: --dap needs --debug NODES"}}) {
    const auto bad = run(fmt::format("{} {} --report {}-x.json", sanvp::test::sanvp_bin(), args, kTmp));
    INFO(args << ": " << bad.err);
    CHECK(bad.rc == 2);
    CHECK(bad.err.rfind(why, 0) == 0);
    CHECK(bad.err.find('\n') == bad.err.size() - 1);  // one line
  }
  std::remove((kTmp + "-x.json").c_str());
}

TEST_CASE("debug commands: tdma run and tdma sync run a node under the debugger with the same results", "[debugger][network]") {
  const std::string streams = std::string(SANVP_SOURCE_DIR) + "/platform/tdma/appendix-a.streams.yaml";
  const Runs r = both("tdma run " + streams + " tdma-a --cycles 2", 1, kSession);
  INFO(r.plain.out << r.plain.err << r.dbg.out << r.dbg.err);
  CHECK(r.plain.rc == 0);
  CHECK(r.dbg.rc == 0);
  check_session(r, 1);
  CHECK(stable(r.dbg.out).find(stable(r.plain.out)) != std::string::npos);
  const Runs s = both("tdma sync single ports=4", 2, kSession);
  INFO(s.plain.out << s.plain.err << s.dbg.out << s.dbg.err);
  CHECK(s.plain.rc == 0);
  CHECK(s.dbg.rc == 0);
  check_session(s, 2);
  CHECK(stable(s.dbg.out).find(stable(s.plain.out)) != std::string::npos);
  const auto bad = run(fmt::format("{} tdma sync single ports=4 --report {}-x.json --debug 4", sanvp::test::sanvp_bin(), kTmp));
  CHECK(bad.rc == 2);
  CHECK(bad.err.rfind("error: --debug: ", 0) == 0);
  std::remove((kTmp + "-x.json").c_str());
}
