// Measured saturation (sim/run.cpp): a sweep of the single-switch scenario reports accepted
// throughput far below offered at load 0.9 and marks the point saturated; at load 0.1 accepted
// equals offered within the statistical margin; packets of the warm-up are not counted.
//
// Where "far below" comes from: the scenario is 8 nodes on one 8-port wormhole switch with
// uniform random destinations. A blocked worm holds its input (head-of-line blocking), so the
// switch is an input-queued FIFO switch, whose saturation throughput under uniform traffic is
// 0.618 of the link bandwidth for N = 8 (Karol, Hluchyj, Morgan 1987, Table I; 0.586 as N grows).
// Offered 0.9 is 0.28 of a link above that.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "platform/sim/run.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
namespace fs = std::filesystem;

namespace {

int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// sweep.csv as one map per row, keyed by the header.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> head;
  std::vector<std::map<std::string, std::string>> rows;
  for (std::string line; std::getline(f, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (line.back() == ',') cells.push_back("");
    if (head.empty()) { head = cells; continue; }
    REQUIRE(cells.size() == head.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < head.size(); ++i) row[head[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

double num(const std::map<std::string, std::string>& row, const std::string& key) { return std::stod(row.at(key)); }

constexpr double kHolLimit8 = 0.618;       // input-queued 8x8 switch, uniform traffic (see above)
constexpr double kLinkMBps = 1e3 / 6.25;   // one byte per link.cp = 6.25 ns: 160 MB/s
constexpr double kPayloadShare = 256.0 / 260.0;  // payload of a 256-byte packet's 260 flits (1 route, 2 header, 1 CRC)

}  // namespace

TEST_CASE("a sweep of the single switch at load 0.1 and 0.9: 0.9 is saturated, 0.1 is not") {
  ::alarm(120);  // never hang CI
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-sat-{}", ::getpid());
  fs::remove_all(d);
  // 100 us of traffic: the window [20 us, 100 us) holds ~400 packets at load 0.9.
  REQUIRE(run(fmt::format("'{}' sweep '{}/platform/scenarios/single-switch-uniform.yaml' --vary traffic.load=0.1,0.9 "
                          "--set duration=100us --jobs 2 --out '{}' > /dev/null 2>&1",
                          SANVP_BIN, SANVP_SOURCE_DIR, d.string())) == 0);
  const auto rows = read_csv(d / "sweep.csv");
  REQUIRE(rows.size() == 2);
  const auto& lo = rows[0];
  const auto& hi = rows[1];
  REQUIRE(lo.at("traffic.load") == "0.1");
  REQUIRE(hi.at("seed") == "1");

  // Load 0.9: offered is what the sources created (a Poisson count of n packets: within 3/sqrt(n)),
  // accepted cannot exceed the head-of-line limit; the gap far exceeds the statistical margin.
  const double n_hi = num(hi, "samples");
  REQUIRE(n_hi > 200);
  CHECK(std::abs(num(hi, "offered_flit_rate") - 0.9) < 0.9 * 3 / std::sqrt(n_hi));
  const double margin_hi = 0.9 * 3 / std::sqrt(n_hi);
  CHECK(num(hi, "accepted_flit_rate") < kHolLimit8 + margin_hi);
  CHECK(num(hi, "offered_flit_rate") - num(hi, "accepted_flit_rate") > 0.9 - kHolLimit8 - margin_hi);
  CHECK(num(hi, "accepted_MBps_per_node") < (kHolLimit8 + margin_hi) * kLinkMBps * kPayloadShare);
  CHECK(num(hi, "offered_MBps_per_node") > (0.9 - margin_hi) * kLinkMBps * kPayloadShare);
  CHECK(num(hi, "backlog_end") > num(hi, "backlog_start"));
  CHECK(hi.at("saturated") == "yes");

  // Load 0.1: every packet created in the window is delivered in it, give or take the few in flight
  // at its ends: accepted equals offered within 3 standard deviations of the count.
  const double n_lo = num(lo, "samples");
  REQUIRE(n_lo > 30);
  const double margin_lo = 0.1 * 3 / std::sqrt(n_lo);
  CHECK(std::abs(num(lo, "offered_flit_rate") - 0.1) < margin_lo);
  CHECK(std::abs(num(lo, "accepted_flit_rate") - num(lo, "offered_flit_rate")) < margin_lo);
  CHECK(std::abs(num(lo, "accepted_MBps_per_node") - num(lo, "offered_MBps_per_node")) < margin_lo * kLinkMBps);
  CHECK(lo.at("saturated") == "no");

  // The run report states the rule and the sample count behind the percentiles.
  nlohmann::json rep;
  std::ifstream(d / "point-001.json") >> rep;
  const auto& m = rep["results"]["measurement"];
  CHECK(m["saturation_rule"].get<std::string>().find("3 * sqrt(n)") != std::string::npos);
  CHECK(m["latency_samples"] == rep["results"]["latency"]["count"]);
  CHECK(m["window_from_ps"].get<Time>() == 20 * kUs);  // sim.warmup = 0.2 of 100 us
  fs::remove_all(d);
}

TEST_CASE("packets of the warm-up are not counted in the measurement window") {
  // A burst of 20 packets from n1..n4 to n0 at time 0 (each waits for the ones before it: up to
  // ~33 us), all delivered in the warm-up [0, 50 us); then 10 lone packets n2 -> n3 in the window.
  ParamValues pv = test::test_params({"sim.duration=100us", "sim.warmup=0.5", "traffic.pattern=none"});
  RunOptions opt = test::checked_run_options();
  RunSpec spec = default_scenario(pv);
  Time last_burst_tail = 0;
  spec.traffic = [](Network& net) {
    for (int i = 0; i < 20; ++i) net.node(1 + i % 4).inject(0, 256, 0);
    for (int i = 0; i < 10; ++i) net.node(2).inject(3, 256, 60 * kUs + i * 3 * kUs);
  };
  spec.keep_packet_records = true;
  spec.on_finish = [&](Network& net) {
    for (const auto& r : net.packets().all()) if (r.dst == 0) last_burst_tail = std::max(last_burst_tail, r.tail_arrival);
  };
  const RunResult res = run_simulation(pv, opt, spec);
  REQUIRE(res.status == RunStatus::Completed);
  REQUIRE(last_burst_tail < 50 * kUs);  // the burst really ended in the warm-up
  const auto& r = res.report["results"];
  CHECK(r["packets_created"] == 30);
  const auto& m = r["measurement"];
  CHECK(m["offered"]["packets"] == 10);
  CHECK(m["accepted"]["packets"] == 10);
  CHECK(r["latency"]["count"] == 10);
  // A lone 260-flit packet through one switch takes ~1.7 us; the burst's last one waited ~30 us.
  CHECK(r["latency"]["max_ps"].get<Time>() < 3 * kUs);
  for (const auto& n : r["nodes"]) {
    if (n["node"] == "n0") CHECK(n["accepted_MBps"] == 0.0);
    if (n["node"] == "n3") CHECK(n["accepted_MBps"].get<double>() == Approx(10 * 256 / 50e-6 / 1e6));
  }
  CHECK(m["saturated"] == false);
}
