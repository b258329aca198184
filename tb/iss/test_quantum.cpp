// Results do not depend on the TLM quantum where firmware synchronizes through registers and
// interrupts: the protocol firmware (FBS) and the host messaging firmware on NICs run at three
// quanta (1 us, the default 10 us, 1 ms) and give byte-identical reports and console output
// (wall-clock lines aside). Each run is a child `sanvp` process: a SystemC kernel cannot be
// restarted inside one test process.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Drops the lines that carry wall-clock figures (as scripts/golden.sh does).
std::string without_wall(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.find("wall") != std::string::npos || line.find("per second") != std::string::npos ||
        line.find("MIPS") != std::string::npos)
      continue;
    out += line + "\n";
  }
  return out;
}

// The report echoes every parameter: drop the one that differs on purpose.
std::string without_quantum(std::string json) {
  const std::size_t at = json.find("\"sim.quantum\": {");
  if (at == std::string::npos) return json;
  return json.erase(at, json.find('}', at) + 1 - at);
}

struct Ran {
  int status = -1;
  std::string console, report;
};

Ran run_sanvp(const std::string& args, const std::string& quantum) {
  // One path for every run of a test (its name is printed on the console).
  const std::string report = "/tmp/sanvp_quantum_" + std::to_string(getpid()) + ".json";
  const std::string cmd = std::string(SANVP_BIN) + " " + args + " --set sim.quantum=" + quantum + " --report " + report + " 2>&1";
  Ran r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.console.append(buf, n);
  r.status = pclose(p);
  r.report = slurp(report);
  std::remove(report.c_str());
  r.console = without_wall(r.console);
  r.report = without_quantum(without_wall(r.report));
  return r;
}

void check_quantum_independent(const std::string& args) {
  const Ran a = run_sanvp(args, "1us"), b = run_sanvp(args, "10us"), c = run_sanvp(args, "1ms");
  REQUIRE(a.status == 0);
  REQUIRE(a.report.find("\"sim.limit\"") != std::string::npos);  // a real report, parameters echoed
  CHECK(b.status == 0);
  CHECK(c.status == 0);
  CHECK(a.report == b.report);
  CHECK(a.report == c.report);
  CHECK(a.console == b.console);
  CHECK(a.console == c.console);
}

}  // namespace

TEST_CASE("FBS protocol firmware gives the same report at 1 us, 10 us and 1 ms quanta", "[core][quantum]") {
  check_quantum_independent("fbs run --set fbs.rounds=3");
}

TEST_CASE("host messaging firmware gives the same report at 1 us, 10 us and 1 ms quanta", "[core][quantum]") {
  check_quantum_independent("msg --sizes 4,4K --iterations 2");
}

namespace {

struct FwStats {
  std::string insns_line;  // "firmware: N instructions, C cycles, T simulated"
  std::uint64_t slices = 0, handovers = 0;
};

FwStats fw_stats(const std::string& cmd) {
  FILE* p = popen((cmd + " 2>&1 >/dev/null").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string err;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) err.append(buf, n);
  pclose(p);
  INFO(cmd << "\n" << err);
  FwStats s;
  std::smatch m;
  REQUIRE(std::regex_search(err, m, std::regex(R"(firmware: \d+ instructions, \d+ cycles, \S+ simulated)")));
  s.insns_line = m[0];
  REQUIRE(std::regex_search(err, m, std::regex(R"(firmware: (\d+) quantum slices, (\d+) handed over to the kernel)")));
  s.slices = std::stoull(m[1]);
  s.handovers = std::stoull(m[2]);
  return s;
}

}  // namespace

// LanaiCore::may_run_on: where nothing else is scheduled, a slice's end need not hand control to
// the kernel. `fw run` lets the core run on up to its timeout; `fw debug` never does (the
// debugger reads the kernel's time at its stops). Both must run the same slices and stop at the
// same instruction, cycle and time; only the hand-overs differ.
TEST_CASE("a bare core runs on through slice ends with the same slices and results as handing each over", "[core][quantum]") {
  const std::string img = SANVP_COMPUTE_IMG, timeout = "2ms";
  const std::string cmds = "/tmp/sanvp_runon_" + std::to_string(getpid()) + ".cmds";
  {
    std::ofstream o(cmds);
    o << "continue\n";
  }
  const FwStats on = fw_stats(std::string(SANVP_BIN) + " fw run --stats --timeout " + timeout + " " + img);
  const FwStats each = fw_stats(std::string(SANVP_BIN) + " fw debug --stats --timeout " + timeout + " " + img + " --commands " + cmds);
  std::remove(cmds.c_str());
  CHECK(on.insns_line == each.insns_line);
  CHECK(on.insns_line.find(", 2ms simulated") != std::string::npos);  // still running at the timeout
  // 2 ms at the default 10 us quantum: at least 200 slices (more where a slice ends early).
  CHECK(on.slices >= 200);
  CHECK(on.slices == each.slices);
  CHECK(each.handovers == each.slices);  // every slice, the last one (past the timeout) included
  CHECK(on.handovers == 1);              // only the slice that crosses the timeout
}
