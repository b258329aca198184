// The TDMA clock-synchronization firmware on simulated NICs (platform/tdma/sync_run.hpp): the
// slaves' offsets from the master, measured by probes against global time, against bounds the
// test derives from its own parameters (not from the run's plan or an earlier run).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "platform/tdma/sync_run.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
using namespace sanvp::tdma;

namespace {

// The oscillators of the ±100 ppm cases: the master (n0) at one extreme, a slave at the other,
// so that one pair differs by the full 200 ppm.
const std::map<int, double> kPpm{{0, -100.0}, {1, 100.0}, {2, -37.5}, {3, 55.0}};

struct Outcome {
  RunResult run;
  const nlohmann::json& sync() const { return run.report["results"]["tdma_sync"]; }
};

Outcome run(std::vector<std::string> sets, const std::string& topo = "single", const std::vector<std::string>& gen = {"ports=4"}) {
  ParamValues pv;
  for (const auto& [node, ppm] : kPpm) pv.set("n" + std::to_string(node) + ".osc.ppm", std::to_string(ppm), "test");
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    pv.set(s.substr(0, eq), s.substr(eq + 1), "test");
  }
  return Outcome{run_sync(pv, test::checked_run_options(), load_network_arg(topo, gen))};
}

void require_completed(const Outcome& o, std::uint32_t periods) {
  REQUIRE(o.run.report["status"] == "completed");
  for (const auto& n : o.sync()["nics"]) {
    REQUIRE(n["finished"] == true);
    REQUIRE(n["refused_sends"] == 0);
    if (n["node"] != 0) REQUIRE(n["received"] == periods);
  }
}

// The drift term: the offset t_master(b) - t_slave(b) grows at 1 - f_m / f_s per unit of the
// master's time, over one sync period of master boundaries (period / (1 + ppm_m) of global time).
double drift_ps(double slave_ppm, double period_ps) {
  const double fm = 1 + kPpm.at(0) * 1e-6, fs = 1 + slave_ppm * 1e-6;
  return std::fabs(1 - fm / fs) * period_ps / fm;
}

// Every slave within resolution + transmission-time error + drift x period after every sync and
// just before the next. The transmission time (a few hundred ns here) counted at the nominal rate
// is off by at most 1 us x 200 ppm = 0.2 ns; tick edges fall on whole ps (2 ps, two clocks).
void require_within_bound(const Outcome& o, double tick_ps, double period_ps) {
  for (const auto& s : o.sync()["slaves"]) {
    const double bound = tick_ps + 200 + 2 + drift_ps(kPpm.at(s["node"].get<int>()), period_ps);
    INFO("n" << s["node"] << ": bound " << bound << " ps, after " << s["after_sync"].dump() << ", before " << s["before_next_sync"].dump());
    REQUIRE(s["after_sync"]["count"].get<int>() >= 1);
    REQUIRE(s["before_next_sync"]["count"].get<int>() >= 1);
    CHECK(s["after_sync"]["max_ps"].get<double>() <= bound);
    CHECK(s["before_next_sync"]["max_ps"].get<double>() <= bound);
    // ...and not far inside it: the drift is really there before the next sync.
    CHECK(s["before_next_sync"]["max_ps"].get<double>() >= drift_ps(kPpm.at(s["node"].get<int>()), period_ps) - tick_ps);
  }
  CHECK(o.sync()["within_bound"] == true);
}

}  // namespace

TEST_CASE("sync at the LANai's 0.5 us ticks under +-100 ppm keeps every slave within the derived bound", "[tdma][sync]") {
  const Outcome o = run({"nic.osc.freq=2", "tdma.sync.periods=6", "nic.sys.time_access=false"});
  require_completed(o, 6);
  require_within_bound(o, 500000, 40 * 30e6);  // tdma.sync_period 40 slots x tdma.slot 30 us
}

TEST_CASE("sync at 1 ns ticks under +-100 ppm keeps every slave within the derived bound", "[tdma][sync]") {
  const Outcome o = run({"nic.osc.freq=1000", "tdma.sync.periods=6", "nic.sys.time_access=false"});
  require_completed(o, 6);
  require_within_bound(o, 1000, 40 * 30e6);
}

TEST_CASE("sync with the thesis's 5 ms period at 0.5 us ticks stays within the derived bound", "[tdma][sync]") {
  const Outcome o = run({"nic.osc.freq=2", "tdma.slot=25us", "tdma.sync_period=200", "tdma.sync.periods=4"});
  require_completed(o, 4);
  require_within_bound(o, 500000, 200 * 25e6);
}

TEST_CASE("the derived transmission time is exact: identical clocks agree to one 1 ns tick over 1 to 3 switches", "[tdma][sync]") {
  // Two nodes per switch on a chain of three, switch.rd changed from its default: the master's
  // slaves sit 1, 2 and 3 switches away. With no drift only the tick and the rounded transmission
  // time remain, within one tick; a transmission time off by a core cycle (15 ns) would show.
  const Outcome o = run({"nic.osc.freq=1000", "tdma.sync.periods=3", "switch.rd=150ns", "n0.osc.ppm=0", "n1.osc.ppm=0", "n2.osc.ppm=0",
                         "n3.osc.ppm=0", "n4.osc.ppm=0", "n5.osc.ppm=0"},
                        "mesh", {"rows=1", "cols=3", "nodes=2", "ports=6"});
  require_completed(o, 3);
  std::vector<std::size_t> hops;
  for (const auto& s : o.sync()["slaves"]) {
    hops.push_back(s["switches"].get<std::size_t>());
    CHECK(s["after_sync"]["max_ps"].get<double>() <= 1000 + 2);
    CHECK(s["before_next_sync"]["max_ps"].get<double>() <= 1000 + 2);
  }
  CHECK(*std::max_element(hops.begin(), hops.end()) == 3);
}

TEST_CASE("with sync disabled the slaves drift apart at the rate of their oscillators", "[tdma][sync]") {
  const Outcome o = run({"nic.osc.freq=2", "tdma.sync.periods=6", "tdma.sync.apply=0"});
  require_completed(o, 6);
  for (const auto& n : o.sync()["nics"]) CHECK(n["applied"] == 0);
  for (const auto& s : o.sync()["slaves"]) {
    const double ppm = kPpm.at(s["node"].get<int>()), master = kPpm.at(0);
    const double expect = (1 - (1 + master * 1e-6) / (1 + ppm * 1e-6)) * 1e6;  // ppm; ~ ppm - master
    INFO("n" << s["node"] << " at " << ppm << " ppm, master " << master << " ppm");
    REQUIRE(s.contains("free_slope_ppm"));
    CHECK(s["free_slope_ppm"].get<double>() == Approx(expect).margin(0.01));
    CHECK(std::fabs(expect - (ppm - master)) < 0.03 * std::fabs(ppm - master));
  }
  // After 5 periods (6 ms) the 200 ppm pair is about 1.2 us apart, far beyond one period's bound.
  CHECK(o.sync()["unsynced"]["max_ps"].get<double>() >= 200e-6 * 5 * 40 * 30e6);
}

namespace {

// `sanvp tdma sync ARGS`, output into `out`; the exit code.
int sanvp_sync(const std::string& args, const std::string& out) {
  const std::string cmd = std::string(SANVP_BIN_PATH) + " tdma sync " + args + " > " + out + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const std::string& f) {
  std::ifstream in(f);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("sanvp tdma sync prints the per-period table and the precision beside the bound, and writes the report", "[tdma][sync][cli]") {
  const std::string dir = std::string(SANVP_BINARY_DIR) + "/tb/tdma/";
  REQUIRE(sanvp_sync("single ports=4 --set tdma.sync.periods=2 --report " + dir + "sync.json", dir + "sync.txt") == 0);
  const std::string text = slurp(dir + "sync.txt");
  INFO(text);
  CHECK(text.find("TDMA clock sync on single ports=4: master n0, 3 slaves") != std::string::npos);
  CHECK(text.find("RTC 2 MHz (500ns ticks)") != std::string::npos);
  CHECK(text.find("every slave within its bound") != std::string::npos);
  CHECK(text.find("thesis (5.2): ~1 us with a 5 ms period") != std::string::npos);
  const auto doc = nlohmann::json::parse(slurp(dir + "sync.json"));
  CHECK(doc["results"]["tdma_sync"]["per_period"].size() == 2);
  CHECK(doc["results"]["tdma_sync"]["within_bound"] == true);
  // A master that is not a NIC node is bad input: one line, exit 2.
  CHECK(sanvp_sync("single ports=4 --set tdma.sync.master=9", dir + "bad.txt") == 2);
  CHECK(slurp(dir + "bad.txt").find("tdma.sync.master = 9 is not a NIC node") != std::string::npos);
}
