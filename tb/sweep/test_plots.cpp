// The plot scripts on small inputs: every figure they write has units on both axes, a legend and
// readable y ticks (tb/sweep/check_plot_axes.py reads the NAME.axes.json beside each PNG), and
// what each figure must show: offered, accepted and the link bandwidth; a confidence band over
// seeds; the paper's values; a refused configuration named on the figure.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace std::string_literals;
namespace fs = std::filesystem;

namespace {

int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

fs::path fresh(const char* what) {
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-plots-{}-{}", what, ::getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string check(const fs::path& d, const std::string& args) {
  return fmt::format("/usr/bin/python3 '{}/tb/sweep/check_plot_axes.py' '{}' {}", SANVP_SOURCE_DIR, d.string(), args);
}

// A sweep of the single switch with two seeds per point (one CSV row per seed, column `seed`).
fs::path two_seed_sweep(const fs::path& d) {
  REQUIRE(run(fmt::format("'{}' sweep '{}/platform/scenarios/single-switch-uniform.yaml' --vary traffic.load=0.1,0.5,0.9 "
                          "--set duration=20us --seeds 2 --jobs 2 --out '{}/s' > /dev/null 2>&1",
                          SANVP_BIN, SANVP_SOURCE_DIR, d.string())) == 0);
  return d / "s" / "sweep.csv";
}

}  // namespace

TEST_CASE("plot_sweep.py: units, offered and accepted with the link bandwidth, a band over seeds") {
  ::alarm(120);
  const fs::path d = fresh("sweep");
  const fs::path csv = two_seed_sweep(d);
  REQUIRE(run(fmt::format("/usr/bin/python3 '{}/scripts/plot_sweep.py' '{}' --out '{}/png' > /dev/null", SANVP_SOURCE_DIR, csv.string(),
                          d.string())) == 0);
  const fs::path png = d / "png";
  const std::string tp = "throughput_vs_traffic.load.png:";
  CHECK(run(check(png, "--expect latency_vs_traffic.load.png:µs --expect latency_vs_traffic.load.png:n= "
                       "--expect " + tp + "offered --expect " + tp + "accepted --expect " + tp + "'link bandwidth (160 MB/s' "
                       "--expect " + tp + "saturated --expect " + tp + "'95 % confidence band over 2 seeds' "
                       "--expect " + tp + "'fraction of link bandwidth' --absent " + tp + "failed") + " > /dev/null") == 0);

  // The check fails when a label loses its unit.
  const fs::path side = png / "latency_vs_traffic.load.axes.json";
  nlohmann::json j;
  std::ifstream(side) >> j;
  j["axes"][0]["ylabel"] = "latency created->tail";
  std::ofstream(side) << j.dump(1);
  CHECK(run(check(png, "") + " > /dev/null") == 1);
  fs::remove_all(d);
}

TEST_CASE("clint_experiments.py: units, the saturated marker explained, Table 2 drawn as paper") {
  ::alarm(120);
  const fs::path d = fresh("clint");
  REQUIRE(run(fmt::format("/usr/bin/python3 '{}/scripts/clint_experiments.py' --sanvp '{}' --out '{}' --cycles 2e4 > /dev/null 2>&1",
                          SANVP_SOURCE_DIR, SANVP_BIN, d.string())) == 0);
  CHECK(run(check(d, "--expect fig8_bulk_latency.png:'paper (Table 2, B4)' --expect fig9_quick_latency.png:'paper (Table 2, Q2)' "
                     "--expect fig8_bulk_latency.png:µs --expect fig9_quick_latency.png:saturated") + " > /dev/null") == 0);
  fs::remove_all(d);
}

TEST_CASE("btin_experiments.py: readable ticks, one legend entry per scheme, the refused f = 0.5 named") {
  ::alarm(120);
  const fs::path d = fresh("btin");
  REQUIRE(run(fmt::format("/usr/bin/python3 '{}/scripts/btin_experiments.py' --sanvp '{}' --out '{}' --runs 2 --groups 0 > /dev/null 2>&1",
                          SANVP_SOURCE_DIR, SANVP_BIN, d.string())) == 0);
  CHECK(run(check(d, "--expect fig6_latency.png:paper --expect fig7_traffic.png:paper --expect fig8_connectivity.png:paper "
                     "--expect 'fig8_connectivity.png:f = 0.5 not drawn' --expect 'fig6_latency.png:network (1024, 300)'") + " > /dev/null") == 0);
  nlohmann::json j;
  std::ifstream(d / "fig6_latency.axes.json") >> j;
  CHECK(j["axes"][0]["legend"].size() == 7);  // 4 schemes + 2 networks + paper, not 8 combinations
  std::ifstream(d / "fig8_connectivity.axes.json") >> j;
  CHECK(j["axes"][0]["yticklabels"].get<int>() >= 4);
  fs::remove_all(d);
}

TEST_CASE("fbs_plots.py: units and the paper's values on a quick FBS experiment") {
  ::alarm(120);
  const fs::path d = fresh("fbs");
  // The experiment draws its plots with scripts/fbs_plots.py at the end (three groups: < 20 s).
  REQUIRE(run(fmt::format("'{}' fbs experiment --out '{}' --quick --rounds 1 -j 2 --only table3,fig4,fig6 > /dev/null 2>&1", SANVP_BIN,
                          d.string())) == 0);
  CHECK(run(check(d, "--expect table3.png:paper --expect fig4.png:paper --expect fig6.png:paper --expect 'fig6.png:skew (µs)'") +
            " > /dev/null") == 0);
  nlohmann::json j;
  std::ifstream(d / "fig6.axes.json") >> j;
  const auto& legend = j["axes"][0]["legend"];
  CHECK(std::count(legend.begin(), legend.end(), "paper") == 1);  // one entry, not one per series
  fs::remove_all(d);
}
