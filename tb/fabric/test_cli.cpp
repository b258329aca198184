// The sanvp command line: determinism of report and waves, VCD validity, bad input handling.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <algorithm>

#include "tb/common/scratch.hpp"
#include "tb/common/vcd_check.hpp"

namespace fs = std::filesystem;

namespace {

struct Cmd { int rc; std::string out, err; };

std::string bin() { return SANVP_BIN; }

using sanvp::test::slurp;
fs::path scratch(const std::string& name) { return sanvp::test::scratch_dir("sanvp-test", name); }

Cmd run(const fs::path& dir, const std::string& args) {
  const std::string cmd = "cd '" + dir.string() + "' && '" + bin() + "' " + args + " > out.txt 2> err.txt";
  int st = std::system(cmd.c_str());
  return Cmd{WEXITSTATUS(st), slurp(dir / "out.txt"), slurp(dir / "err.txt")};
}

}  // namespace

TEST_CASE("same seed gives byte-identical report and VCD, another seed differs", "[cli][determinism]") {
  auto d = scratch("det");
  const std::string common = "run --set sim.duration=200us --trace-window 0:30us";
  REQUIRE(run(d, common + " --report a.json --vcd a.vcd").rc == 0);
  REQUIRE(run(d, common + " --report b.json --vcd b.vcd").rc == 0);
  REQUIRE(run(d, common + " --seed 7 --report c.json --vcd c.vcd").rc == 0);
  const std::string a = slurp(d / "a.json");
  CHECK(a.size() > 1000);
  CHECK(a == slurp(d / "b.json"));
  CHECK(slurp(d / "a.vcd") == slurp(d / "b.vcd"));
  CHECK(a != slurp(d / "c.json"));
  CHECK(slurp(d / "a.vcd") != slurp(d / "c.vcd"));
  CHECK(a.find("\"seed\": 1") != std::string::npos);
  CHECK(slurp(d / "c.json").find("\"seed\": 7") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("every VCD holds one settled value per signal per instant", "[cli][vcd]") {
  // Fabric, NIC firmware and FBS runs: models record changes at the current instant from several
  // processes, so an instant is written only once the kernel has moved past it.
  auto d = scratch("glitch");
  const char* runs[][2] = {
      {"run --vcd a.vcd --trace-window 0:50us --report /dev/null", "a.vcd"},
      {"msg --sizes 4,4K --iterations 1 --vcd b.vcd --trace-window 0:2ms --report /dev/null", "b.vcd"},
      {"fbs run single ports=2 --set fbs.rounds=2 --vcd c.vcd --report /dev/null", "c.vcd"}};
  for (const auto& r : runs) {
    INFO(r[0]);
    REQUIRE(run(d, r[0]).rc == 0);
    const std::string vcd = slurp(d / r[1]);
    CHECK(vcd.size() > 10000);
    const auto rep = sanvp::test::repeated_changes(vcd);
    INFO((rep.empty() ? std::string("none") : "first at " + std::to_string(rep[0].time) + " ps, identifier " + rep[0].id));
    CHECK(rep.empty());
  }
  fs::remove_all(d);
}

TEST_CASE("the default scenario's VCD converts with vcd2fst", "[cli][vcd]") {
  auto d = scratch("vcd");
  Cmd r = run(d, "run --vcd default.vcd --trace-window 0:50us");
  REQUIRE(r.rc == 0);
  CHECK(r.out.find("packets:") != std::string::npos);
  const std::string vcd = slurp(d / "default.vcd");
  CHECK(vcd.find("$scope module sw0 $end") != std::string::npos);
  CHECK(vcd.find("occupancy") != std::string::npos);
  CHECK(vcd.find("owner") != std::string::npos);
  const std::string cmd = "vcd2fst '" + (d / "default.vcd").string() + "' '" + (d / "default.fst").string() + "' > /dev/null 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
  CHECK(fs::file_size(d / "default.fst") > 100);
  // vcd2fst exits 0 even on garbage, so also: declared identifiers only, time strictly increasing,
  // and the FST converted back holds the same signals and time steps (nothing silently dropped).
  struct Shape { std::size_t vars = 0, steps = 0, changes = 0, undeclared = 0, backwards = 0; };
  auto shape = [](const std::string& text) {
    Shape sh;
    std::istringstream in(text);
    std::set<std::string> ids;
    long long last = -1;
    bool defs = true;
    for (std::string line; std::getline(in, line);) {
      std::istringstream ls(line);
      std::string w;
      ls >> w;
      if (w.empty()) continue;
      if (defs) {
        if (w == "$var") { std::string type, width, id; ls >> type >> width >> id; ids.insert(id); ++sh.vars; }
        if (w == "$enddefinitions") defs = false;
        continue;
      }
      if (w[0] == '$') continue;  // $dumpvars / $end
      if (w[0] == '#') {
        const long long t = std::stoll(w.substr(1));
        if (t <= last) ++sh.backwards;
        last = t;
        ++sh.steps;
        continue;
      }
      std::string id;
      if (w[0] == 'b' || w[0] == 'r') ls >> id;  // vector: "b0101 id"
      else id = w.substr(1);                      // scalar: "1id"
      if (!ids.count(id)) ++sh.undeclared;
      ++sh.changes;
    }
    return sh;
  };
  const Shape a = shape(vcd);
  CHECK(a.vars > 50);
  CHECK(a.steps > 100);
  CHECK(a.undeclared == 0);
  CHECK(a.backwards == 0);
  const std::string back = "fst2vcd '" + (d / "default.fst").string() + "' -o '" + (d / "back.vcd").string() + "' > /dev/null 2>&1";
  REQUIRE(std::system(back.c_str()) == 0);
  const Shape b = shape(slurp(d / "back.vcd"));
  CHECK(b.vars == a.vars);
  CHECK(b.steps == a.steps);
  CHECK(b.undeclared == 0);
  fs::remove_all(d);
}

TEST_CASE("trace patterns select modules", "[cli][vcd]") {
  auto d = scratch("tracesel");
  REQUIRE(run(d, "run --set sim.duration=50us --vcd t.vcd --trace 'sw0.p3.*'").rc == 0);
  const std::string vcd = slurp(d / "t.vcd");
  CHECK(vcd.find("$scope module p3 $end") != std::string::npos);
  CHECK(vcd.find("$scope module p4 $end") == std::string::npos);
  CHECK(vcd.find("$scope module n0 $end") == std::string::npos);
  fs::remove_all(d);
}

namespace {
// Bad input: exit code 2, one line on stderr naming the parameter, and no report written.
// `scenario`, when given, is written to s.yaml in the working directory first.
void bad_input(const std::string& args, const std::string& must_contain, const std::string& scenario = "") {
  auto d = scratch("bad");
  if (!scenario.empty()) std::ofstream(d / "s.yaml") << scenario;
  Cmd r = run(d, "run " + args + " --report r.json");
  INFO(args << " -> rc " << r.rc << " stderr: " << r.err);
  CHECK(r.rc == 2);
  CHECK(r.err.find(must_contain) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(d / "r.json"));
  fs::remove_all(d);
}
}  // namespace

TEST_CASE("bad input: negative delay", "[cli][errors]") { bad_input("--set link.ld=-5ns", "link.ld"); }
TEST_CASE("bad input: kg > ks", "[cli][errors]") { bad_input("--set fc.kg=60", "kg=60 >= ks=53"); }
TEST_CASE("bad input: ks > bl", "[cli][errors]") { bad_input("--set fc.ks=70", "ks=70 > bl=64"); }
TEST_CASE("bad input: unknown --set key", "[cli][errors]") { bad_input("--set switch.nonsense=1", "unknown parameter 'switch.nonsense'"); }
TEST_CASE("bad input: unknown instance key", "[cli][errors]") { bad_input("--set sw7.rd=10ns", "unknown parameter 'sw7.rd'"); }
TEST_CASE("bad input: malformed value", "[cli][errors]") { bad_input("--set fc.bl=many", "fc.bl"); }
TEST_CASE("bad input: route through an unconnected port", "[cli][errors]") {
  // Two nodes on an 8-port switch; port 5 has nothing attached.
  bad_input("s.yaml", "hop 0 leaves switch 0 through unconnected port 5",
            "topology: {switches: 1, nodes: [\"0:0\", \"0:1\"]}\n"
            "routing: {routes: [{src: 0, dst: 1, route: [5]}]}\n"
            "duration: 10us\n");
}
TEST_CASE("bad input: --set route through an unconnected port", "[cli][errors]") {
  bad_input("s.yaml --set routing.routes.0.route=[6]", "unconnected port 6",
            "topology: {switches: 1, nodes: [\"0:0\", \"0:1\"]}\n"
            "routing: {routes: [{src: 0, dst: 1, route: [1]}]}\n"
            "duration: 10us\n");
}
TEST_CASE("bad input: a range error names the scenario file position", "[cli][errors]") {
  bad_input("s.yaml", "s.yaml:2:17: traffic.load: -1 is outside 1e-06..1",
            "topology: {generate: {type: single}}\ntraffic: {load: -1}\n");
  bad_input("--set traffic.load=3", "--set: parameter 'traffic.load': 3 is outside 1e-06..1");
}
TEST_CASE("bad input: a load too small to create a packet, an endless burst, a permutation onto itself", "[cli][errors]") {
  bad_input("--set traffic.load=1e-15", "--set: parameter 'traffic.load': 1e-15 is outside 1e-06..1");
  bad_input("--set traffic.process=bursty --set traffic.burst=1e300", "--set: parameter 'traffic.burst': 1e300 is outside 1..1000000");
  bad_input("--set traffic.pattern=permutation --set traffic.shift=16",
            "traffic.shift (--set): 16 is a multiple of the 8 test endpoints: the permutation would map every node to itself");
}
TEST_CASE("sanvp params states the port range the switch accepts", "[cli]") {
  auto d = scratch("params");
  Cmd r = run(d, "params");
  REQUIRE(r.rc == 0);
  CHECK(r.out.find("number of ports of a switch (2..64)") != std::string::npos);
  bad_input("--set switch.ports=1", "switch.ports");
  bad_input("--set switch.ports=65", "switch.ports");
  fs::remove_all(d);
}
TEST_CASE("bad input: ks > bl from a scenario file names where ks was set", "[cli][errors]") {
  bad_input("s.yaml", "ks=70 > bl=64", "topology: {generate: {type: single}}\nparams:\n  fc.ks: 70\n");
  bad_input("s.yaml", "(fc.ks from s.yaml:3:3: params.fc.ks)", "topology: {generate: {type: single}}\nparams:\n  fc.ks: 70\n");
}
TEST_CASE("bad input: a negative seed is refused, not wrapped", "[cli][errors]") {
  auto d = scratch("seed");
  Cmd r = run(d, "run --seed -3 --report r.json");
  CHECK(r.rc == 2);
  CHECK(r.err.find("--seed: must be a non-negative integer, got -3") != std::string::npos);
  CHECK_FALSE(fs::exists(d / "r.json"));
  fs::remove_all(d);
}
TEST_CASE("bad input: buffer too small for the link delay", "[cli][errors]") { bad_input("--set link.ld=40ns", "buffer would overflow"); }

TEST_CASE("params lists every parameter with unit, default and meaning", "[cli]") {
  auto d = scratch("params");
  Cmd r = run(d, "params");
  REQUIRE(r.rc == 0);
  for (const char* k : {"link.ld", "link.cp", "switch.sd", "switch.rd", "fc.fc", "fc.bl", "fc.ks", "fc.kg"})
    CHECK(r.out.find(k) != std::string::npos);
  CHECK(r.out.find("17ns") != std::string::npos);
  CHECK(r.out.find("3.26ns") != std::string::npos);
  fs::remove_all(d);
}
