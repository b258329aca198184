// Fault reports, exit codes, timeouts, trace and profile of `sanvp fw run`.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <regex>
#include <sstream>

#include "tb/firmware/run_util.hpp"

using sanvp::test::Proc;

namespace {

std::string img(const std::string& name) { return std::string(FW_BIN_DIR) + "/fault_fw_" + name + ".img"; }

Proc fw_run(const std::string& name, const std::string& extra = "") {
  return sanvp::test::run(sanvp::test::sanvp_bin() + " fw run " + img(name) + " " + extra);
}

// Every report has the same parts: kind, time, pc with symbol, disassembly, all 32 registers,
// flags and the last 16 pcs with symbols.
void check_report(const Proc& p, const std::string& kind, bool last_pc_is_fault_pc = true) {
  INFO(p.err);
  CHECK(p.rc == 3);
  CHECK(p.err.find("firmware fault: " + kind + "\n") != std::string::npos);
  CHECK(std::regex_search(p.err, std::regex(R"(\n  time  : [0-9.]+(ps|ns|us|ms|s)\n)")));
  CHECK(std::regex_search(p.err, std::regex(R"(\n  pc    : 0x[0-9a-f]{8} <[^>]+>\n)")));
  CHECK(std::regex_search(p.err, std::regex(R"(\n  insn  : )")));
  CHECK(p.err.find("  cause : ") != std::string::npos);
  for (const char* r : {"r0  = 0x00000000", "r1  = 0xffffffff", "sp  = 0x", "fp  = 0x", "rca = 0x", "r31 = 0x"})
    CHECK(p.err.find(r) != std::string::npos);
  CHECK(std::regex_search(p.err, std::regex(R"(\n  flags : N=[01] Z=[01] V=[01] C=[01]\n)")));
  CHECK(p.err.find("  last 16 pcs (oldest first):\n") != std::string::npos);
  const std::regex pcline(R"(\n    0x[0-9a-f]{8} <[^>]+> +\S)");
  const auto n = std::distance(std::sregex_iterator(p.err.begin(), p.err.end(), pcline), std::sregex_iterator());
  CHECK(n == 16);
  // The history ends with the faulting instruction (a failed fetch never entered it).
  std::smatch pcm, lastm;
  REQUIRE(std::regex_search(p.err, pcm, std::regex(R"(\n  pc    : (0x[0-9a-f]{8}) )")));
  REQUIRE(std::regex_search(p.err, lastm, std::regex(R"(\n    (0x[0-9a-f]{8}) <[^\n]*\n  retired: )")));
  CHECK((pcm[1] == lastm[1]) == last_pc_is_fault_pc);
}

}  // namespace

TEST_CASE("illegal instruction: report names the function and shows the word", "[fault]") {
  const auto p = fw_run("illegal");
  check_report(p, "illegal instruction");
  CHECK(p.out == "before\n");
  CHECK(p.err.find("<run_bad_word()") != std::string::npos);
  CHECK(p.err.find("d0000000  <unknown>") != std::string::npos);
}

TEST_CASE("unmapped access: the address and the bus response are reported", "[fault]") {
  const auto p = fw_run("unmapped");
  check_report(p, "access outside mapped memory");
  CHECK(p.err.find("load of 4 bytes at 0x40000000") != std::string::npos);
  CHECK(p.err.find("<read_nowhere(unsigned int)") != std::string::npos);
}

TEST_CASE("stack overflow: sp below the stack limit in the recursing function", "[fault]") {
  const auto p = fw_run("stack_overflow");
  check_report(p, "stack overflow");
  CHECK(p.err.find("<dive(int)") != std::string::npos);
  // Every remembered pc is inside the recursion.
  const auto last = p.err.substr(p.err.find("last 16 pcs"));
  CHECK(last.find("<main") == std::string::npos);
}

TEST_CASE("misaligned word load faults", "[fault]") {
  const auto p = fw_run("misaligned");
  check_report(p, "misaligned access");
  CHECK(p.err.find("load of 4 bytes at misaligned address") != std::string::npos);
}

TEST_CASE("call through a null pointer is a fetch outside the code", "[fault]") {
  const auto p = fw_run("null_call");
  check_report(p, "fetch outside code", false);
  CHECK(p.err.find("pc    : 0x00000000") != std::string::npos);
  CHECK(p.err.find("insn  : (not in code)") != std::string::npos);
}

TEST_CASE("the documented example firmware (firmware/examples/hello.cpp) runs", "[example]") {
  const auto p = sanvp::test::run(sanvp::test::sanvp_bin() + " fw run " + std::string(FW_EXAMPLES_DIR) + "/fw_hello.img");
  INFO(p.err);
  CHECK(p.rc == 7);  // main's return value
  CHECK(std::regex_match(p.out, std::regex("hello from LANai firmware\nfib\\(20\\) = 6765, 1000000/7 = 142857, t = [1-9][0-9]* ns\n")));
}

TEST_CASE("exit(code) ends the run with that exit code", "[exit]") {
  const auto p = fw_run("exit42", "--stats");
  CHECK(p.rc == 42);
  CHECK(p.out == "finishing\n");
  CHECK(p.err.find("firmware exited with code 42 at ") != std::string::npos);
}

TEST_CASE("a firmware that never exits stops at --timeout with a simulation error", "[exit]") {
  const auto p = fw_run("spin", "--timeout 200us");
  CHECK(p.rc == 3);
  CHECK(p.err.find("did not exit within 200us") != std::string::npos);
}

TEST_CASE("exit(256) is reported with its full code and fails the run (it used to read as 0)", "[exit]") {
  const auto p = fw_run("exit256");
  CHECK(p.rc == 3);
  CHECK(p.err.find("error: firmware exited with code 256 (0x100) at ") != std::string::npos);
  CHECK(p.err.find("does not fit a process exit status (0..255)") != std::string::npos);
}

TEST_CASE("the statistics after a timeout show the work done, not zeros", "[exit]") {
  const auto p = fw_run("spin", "--timeout 200us --stats");
  CHECK(p.rc == 3);
  std::smatch m;
  REQUIRE(std::regex_search(p.err, m, std::regex(R"(firmware: ([0-9]+) instructions, ([0-9]+) cycles, 200us simulated)")));
  CHECK(std::stoull(m[1]) > 1000);
  CHECK(std::stoull(m[2]) >= std::stoull(m[1]));
}

TEST_CASE("bad images and options are user errors (exit 2)", "[cli]") {
  const auto elf = sanvp::test::run(sanvp::test::sanvp_bin() + " fw run " + std::string(FW_BIN_DIR) + "/fault_fw_spin.fw/fault_fw_spin.o");
  CHECK(elf.rc == 2);
  CHECK(elf.err.find("is an ELF object, not a firmware image") != std::string::npos);
  const auto missing = sanvp::test::run(sanvp::test::sanvp_bin() + " fw run /nonexistent.img");
  CHECK(missing.rc == 2);
  const auto badset = fw_run("exit42", "--set nic.core.clock=0");
  CHECK(badset.rc == 2);
  CHECK(badset.err.find("nic.core.clock") != std::string::npos);
  const auto badfilter = fw_run("exit42", "--fw-trace-filter no_such_function");
  CHECK(badfilter.rc == 2);
  CHECK(badfilter.err.find("no symbol 'no_such_function'") != std::string::npos);
}

TEST_CASE("fw-trace-filter traces only the named function, one line per instruction", "[trace]") {
  const std::string trace = "/tmp/sanvp_trace_" + std::to_string(getpid()) + ".txt";
  const auto p = fw_run("profile_me", "--fw-trace-filter 'leaf(int)' --fw-trace-file " + trace);
  REQUIRE(p.rc == 0);
  const std::string t = sanvp::test::slurp(trace);
  std::remove(trace.c_str());
  std::istringstream in(t);
  std::string line;
  int lines = 0, entries = 0;
  const std::regex fmt_re(R"(^ *[0-9.]+(ps|ns|us|ms|s) [0-9a-f]{8} leaf\(int\)(\+0x[0-9a-f]+)? +\S.*$)");
  while (std::getline(in, line)) {
    ++lines;
    INFO(line);
    CHECK(std::regex_match(line, fmt_re));
    if (std::regex_search(line, std::regex(R"( leaf\(int\) +st +%fp, \[--%sp\])"))) ++entries;
  }
  CHECK(entries == 1000);  // one prologue per call
  CHECK(lines % 1000 == 0);
  CHECK(t.find("sp=0x") != std::string::npos);  // register writes are shown
}

TEST_CASE("fw-trace by pc range and the full trace's instruction count", "[trace]") {
  const std::string trace = "/tmp/sanvp_trace2_" + std::to_string(getpid()) + ".txt";
  const auto p = fw_run("exit42", "--stats --fw-trace-file " + trace);
  REQUIRE(p.rc == 42);
  const std::string t = sanvp::test::slurp(trace);
  std::remove(trace.c_str());
  const auto n = std::count(t.begin(), t.end(), '\n');
  std::smatch m;
  REQUIRE(std::regex_search(p.err, m, std::regex(R"(firmware: (\d+) instructions)")));
  CHECK(static_cast<long>(n) == std::stol(m[1]));  // every retired instruction traced once
  // A range covering nothing traces nothing.
  const auto q = fw_run("exit42", "--fw-trace-filter 0xf00000-0xf00010 --fw-trace-file " + trace);
  CHECK(q.rc == 42);
  CHECK(sanvp::test::slurp(trace).empty());
  std::remove(trace.c_str());
}

TEST_CASE("fw-profile: per-function instructions and cycles add up to the run's totals", "[profile]") {
  const std::string prof = "/tmp/sanvp_prof_" + std::to_string(getpid()) + ".txt";
  const auto p = fw_run("profile_me", "--stats --fw-profile-file " + prof);
  REQUIRE(p.rc == 0);
  const std::string t = sanvp::test::slurp(prof);
  std::remove(prof.c_str());
  INFO(t);
  std::smatch m;
  REQUIRE(std::regex_search(p.err, m, std::regex(R"(firmware: (\d+) instructions, (\d+) cycles)")));
  const long insns = std::stol(m[1]), cycles = std::stol(m[2]);
  std::istringstream in(t);
  std::string line;
  long sum_i = 0, sum_c = 0;
  double pct = 0;
  long leaf_insns = -1;
  const std::regex row(R"(^ *([0-9.]+)% +(\d+) +(\d+) +\S+  (.+)$)");
  while (std::getline(in, line)) {
    std::smatch r;
    if (!std::regex_match(line, r, row)) continue;
    pct += std::stod(r[1]);
    sum_c += std::stol(r[2]);
    sum_i += std::stol(r[3]);
    if (r[4] == "leaf(int)") leaf_insns = std::stol(r[3]);
  }
  CHECK(sum_i == insns);
  CHECK(sum_c == cycles);
  CHECK(pct == Approx(100.0).margin(0.1));
  // leaf() is straight-line code: each of its 1000 calls runs every instruction once.
  const std::string map = sanvp::test::slurp(img("profile_me").substr(0, img("profile_me").size() - 4) + ".map");
  REQUIRE(std::regex_search(map, m, std::regex(R"(0x[0-9a-f]{8} +(\d+) F _Z4leafi\n)")));
  CHECK(leaf_insns == 1000 * std::stol(m[1]) / 4);
}

TEST_CASE("sanvp fw disasm of compiled code matches llvm-objdump word for word", "[disasm]") {
  // Relocated words (branches, hi/lo) differ between the linked image and the relocatable
  // object, so compare every word whose bytes occur in llvm-objdump's listing of the runtime.
  const auto ours = sanvp::test::run(sanvp::test::sanvp_bin() + " fw disasm " + img("profile_me"));
  REQUIRE(ours.rc == 0);
  const auto theirs = sanvp::test::run(std::string(LLVM_OBJDUMP) + " -d " + LANAI_RUNTIME_OBJ);
  REQUIRE(theirs.rc == 0);
  const std::regex line_re(R"(^ *[0-9a-f]+: ((?:[0-9a-f]{2} ){4}) *\t([^<\n]*?)(?: <[^>]*>)?$)");
  std::map<std::string, std::string> ref;
  {
    std::istringstream in(theirs.out);
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_match(line, m, line_re)) ref[m[1]] = m[2];
  }
  REQUIRE(ref.size() > 200);
  std::istringstream in(ours.out);
  std::string line;
  std::smatch m;
  int compared = 0;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, line_re)) continue;
    auto it = ref.find(m[1]);
    if (it == ref.end()) continue;
    INFO(line);
    CHECK(m[2].str() == it->second);
    ++compared;
  }
  CHECK(compared > 500);
}

TEST_CASE("DMI off and a tiny quantum change neither output nor simulated time", "[timing][dmi]") {
  const auto a = fw_run("profile_me", "--stats");
  const auto b = fw_run("profile_me", "--stats --set nic.core.dmi=false --set sim.quantum=100ns");
  REQUIRE(a.rc == 0);
  REQUIRE(b.rc == 0);
  CHECK(a.out == b.out);
  std::smatch ma, mb;
  const std::regex re(R"(firmware: (\d+) instructions, (\d+) cycles, (\S+) simulated)");
  REQUIRE(std::regex_search(a.err, ma, re));
  REQUIRE(std::regex_search(b.err, mb, re));
  CHECK(ma[1] == mb[1]);
  CHECK(ma[2] == mb[2]);
  CHECK(ma[3] == mb[3]);
}

TEST_CASE("fw-trace-filter takes several functions (demangled names may contain commas)", "[trace]") {
  const std::string trace = "/tmp/sanvp_trace3_" + std::to_string(getpid()) + ".txt";
  const auto p = fw_run("profile_me", "--fw-trace-filter 'leaf(int),busy(int)' --fw-trace-file " + trace);
  REQUIRE(p.rc == 0);
  const std::string t = sanvp::test::slurp(trace);
  std::remove(trace.c_str());
  std::istringstream in(t);
  std::string line;
  int leaf = 0, busy = 0, other = 0;
  const std::regex sym(R"(^ *\S+ [0-9a-f]{8} (\S+?)(\+0x[0-9a-f]+)? )");
  while (std::getline(in, line)) {
    std::smatch m;
    REQUIRE(std::regex_search(line, m, sym));
    if (m[1] == "leaf(int)") ++leaf;
    else if (m[1] == "busy(int)") ++busy;
    else ++other;
  }
  CHECK(leaf > 1000);
  CHECK(busy > 1000);
  CHECK(other == 0);
}

TEST_CASE("fw-trace-filter: a function named without its parameters or namespaces is found", "[trace]") {
  const std::string a = "/tmp/sanvp_trace4a_" + std::to_string(getpid()) + ".txt";
  const std::string b = "/tmp/sanvp_trace4b_" + std::to_string(getpid()) + ".txt";
  const auto p = fw_run("profile_me", "--fw-trace-filter leaf --fw-trace-file " + a);
  const auto q = fw_run("profile_me", "--fw-trace-filter 'leaf(int)' --fw-trace-file " + b);
  REQUIRE(p.rc == 0);
  REQUIRE(q.rc == 0);
  const std::string ta = sanvp::test::slurp(a), tb = sanvp::test::slurp(b);
  std::remove(a.c_str());
  std::remove(b.c_str());
  CHECK(!ta.empty());
  CHECK(ta == tb);
  const auto m = fw_run("profile_me", "--fw-trace-filter main --fw-trace-file " + a);
  CHECK(m.rc == 0);
  const std::string tm = sanvp::test::slurp(a);
  std::remove(a.c_str());
  CHECK(tm.find(" main()") != std::string::npos);
  // fw_hello's fib is in an anonymous namespace: "(anonymous namespace)::fib(unsigned int)".
  const auto f = sanvp::test::run(sanvp::test::sanvp_bin() + " fw run " + std::string(FW_EXAMPLES_DIR) + "/fw_hello.img --fw-trace-filter fib --fw-trace-file " + a);
  CHECK(f.rc == 7);
  const std::string tf = sanvp::test::slurp(a);
  std::remove(a.c_str());
  CHECK(tf.find(" (anonymous namespace)::fib(unsigned int) ") != std::string::npos);
  CHECK(fw_run("profile_me", "--fw-trace-filter eaf").rc == 2);  // a suffix of a name is not a name
}
