// Sweep backends without a cluster: --resume reruns only the points without a result, --seeds
// repeats every point with derived seeds, `sweep collect` re-merges byte for byte, and bad
// backend options are one-line errors before anything runs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "hw/base/error.hpp"
#include "tb/sweep/sweep_test_util.hpp"

using namespace sweep_test;

namespace {
const std::string kSix = "--vary traffic.load=0.1:0.6:0.1 --set duration=10us --jobs 2 --out res";
}

TEST_CASE("resume: reruns only the points whose report or exit code is missing") {
  TempDir t("sweep-resume");
  REQUIRE(sweep_in(t.path, "first", scenario() + " " + kSix) == 0);
  REQUIRE(count_lines_with(t.path / "first.err", "] point ") == 6);
  const std::string csv = slurp(t.path / "res/sweep.csv"), json = slurp(t.path / "res/sweep.json");
  // Point 2 killed before its report, point 4 killed between its report and its exit code.
  fs::remove(t.path / "res/point-002.json");
  fs::remove(t.path / "res/point-004.rc");
  fs::remove(t.path / "res/sweep.csv");
  REQUIRE(sweep_in(t.path, "again", scenario() + " " + kSix + " --resume") == 0);
  REQUIRE(count_lines_with(t.path / "again.err", "] point ") == 2);
  REQUIRE(count_lines_with(t.path / "again.err", "] point 2 (traffic.load=0.3)") == 1);
  REQUIRE(count_lines_with(t.path / "again.err", "] point 4 (traffic.load=0.5)") == 1);
  REQUIRE(slurp(t.path / "res/sweep.csv") == csv);
  REQUIRE(slurp(t.path / "res/sweep.json") == json);
  // Nothing left to do: no point runs, the merge is the same.
  REQUIRE(sweep_in(t.path, "third", scenario() + " " + kSix + " --resume") == 0);
  REQUIRE(count_lines_with(t.path / "third.err", "] point ") == 0);
  REQUIRE(slurp(t.path / "res/sweep.csv") == csv);
  // Another sweep in the same folder is refused, not mixed.
  REQUIRE(sweep_in(t.path, "other", scenario() + " --vary traffic.load=0.1,0.2 --out res --resume") == sanvp::kExitUserError);
  REQUIRE(count_lines_with(t.path / "other.err", "holds another sweep") == 1);
}

TEST_CASE("sweep collect merges a sweep folder again, byte for byte, from any folder") {
  TempDir t("sweep-collect");
  REQUIRE(sweep_in(t.path, "first", scenario() + " " + kSix) == 0);
  const std::string csv = slurp(t.path / "res/sweep.csv"), json = slurp(t.path / "res/sweep.json");
  fs::remove(t.path / "res/sweep.csv");
  fs::remove(t.path / "res/sweep.json");
  REQUIRE(run(fmt::format("cd / && {} sweep collect {} > /dev/null 2>&1", sanvp_bin(), (t.path / "res").string())) == 0);
  REQUIRE(slurp(t.path / "res/sweep.csv") == csv);
  REQUIRE(slurp(t.path / "res/sweep.json") == json);
  // A point without a result is merged as exit code -1 and the sweep fails.
  fs::remove(t.path / "res/point-001.json");
  REQUIRE(run(fmt::format("cd / && {} sweep collect {} > /dev/null 2>&1", sanvp_bin(), (t.path / "res").string())) == sanvp::kExitSimError);
  REQUIRE(count_lines_with(t.path / "res/sweep.csv", "1,0.2,-1,no-report,") == 1);
  REQUIRE(run(fmt::format("{} sweep collect {} > /dev/null 2>&1", sanvp_bin(), (t.path / "nothing").string())) == sanvp::kExitUserError);
}

TEST_CASE("seeds: runs every point with the base seed + 0..N-1 in a seed column") {
  TempDir t("sweep-seeds");
  REQUIRE(sweep_in(t.path, "s", scenario() + " --vary traffic.load=0.2,0.4 --seeds 3 --seed 7 --set duration=10us --out res") == 0);
  std::ifstream f(t.path / "res/sweep.csv");
  std::vector<std::string> rows;
  for (std::string l; std::getline(f, l);) rows.push_back(l);
  REQUIRE(rows.size() == 7);
  REQUIRE(rows[0].rfind("point,traffic.load,seed,exit_code,", 0) == 0);
  const char* want[] = {"0,0.2,7,0,", "1,0.2,8,0,", "2,0.2,9,0,", "3,0.4,7,0,", "4,0.4,8,0,", "5,0.4,9,0,"};
  for (int i = 0; i < 6; ++i) REQUIRE(rows[i + 1].rfind(want[i], 0) == 0);
  nlohmann::json j;
  std::ifstream(t.path / "res/sweep.json") >> j;
  // The seed reaches the run: its report says so, and another seed draws other traffic.
  nlohmann::json r1;
  std::ifstream(t.path / "res/point-001.json") >> r1;
  REQUIRE(r1["seed"] == 8);
  REQUIRE(j["points"][0]["results"]["latency"] != j["points"][1]["results"]["latency"]);
  // Seed 7 of the grid is the plain run with --seed 7.
  REQUIRE(sweep_in(t.path, "p", scenario() + " --vary traffic.load=0.2 --seed 7 --set duration=10us --out plain") == 0);
  nlohmann::json p;
  std::ifstream(t.path / "plain/sweep.json") >> p;
  REQUIRE(p["points"][0]["results"] == j["points"][0]["results"]);
  // Without --seed the base is the scenario's seed (1).
  REQUIRE(sweep_in(t.path, "d", scenario() + " --vary traffic.load=0.2 --seeds 2 --set duration=10us --out dflt") == 0);
  REQUIRE(count_lines_with(t.path / "dflt/sweep.csv", "0,0.2,1,0,") == 1);
  REQUIRE(count_lines_with(t.path / "dflt/sweep.csv", "1,0.2,2,0,") == 1);
}

TEST_CASE("bad backend options are one-line errors before anything runs") {
  TempDir t("sweep-badopts");
  const std::string base = scenario() + " --vary traffic.load=0.1,0.2 --set duration=10us --out res ";
  REQUIRE(sweep_in(t.path, "b", base + "--backend pbs") == sanvp::kExitUserError);
  REQUIRE(count_lines_with(t.path / "b.err", "--backend") >= 1);
  REQUIRE(sweep_in(t.path, "p", base + "--partition debug") == sanvp::kExitUserError);
  REQUIRE(count_lines_with(t.path / "p.err", "--partition needs --backend slurm") == 1);
  REQUIRE(sweep_in(t.path, "q", base + "--backend slurm --partition 'a b'") == sanvp::kExitUserError);
  REQUIRE(count_lines_with(t.path / "q.err", "--partition 'a b': not a Slurm partition name") == 1);
  REQUIRE(sweep_in(t.path, "m", base + "--backend slurm --max-parallel 0") == sanvp::kExitUserError);
  REQUIRE(count_lines_with(t.path / "m.err", "--max-parallel") >= 1);
  REQUIRE(sweep_in(t.path, "s", base + "--seeds 2 --vary seed=1,2") == sanvp::kExitUserError);
  REQUIRE(sweep_in(t.path, "n", "--vary traffic.load=0.1") == sanvp::kExitUserError);
  REQUIRE(!fs::exists(t.path / "res/point-000.json"));
}
