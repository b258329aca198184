// `sanvp fbs experiment`: the threshold rule for cp/bl points, and a tiny experiment end to end
// (Figure 4's two end points, 2 rounds): the JSON's structure and every simulated skew within its
// model-consistent bound. The full sweep is an experiment, not a test.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "platform/fbs/experiment_plan.hpp"

namespace {

struct Ran { int code; std::string out; };

// Runs `sanvp ARGS`, its stdout and stderr into a log beside the test's outputs, one per process:
// ctest runs the cases in parallel, and a shared log let one case read another's output.
Ran run_sanvp(const std::string& args) {
  const std::string log = std::string(SANVP_BINARY_DIR) + "/tb/fbs/experiment-cli-" + std::to_string(::getpid()) + ".log";
  const int st = std::system((std::string(SANVP_BIN) + " " + args + " > " + log + " 2>&1").c_str());
  std::ifstream in(log);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())};
}

}  // namespace

using namespace sanvp::fbs;

TEST_CASE("the threshold rule keeps ks 11 below bl and makes room for the round trip at fast links", "[fbs][experiment]") {
  const SkewInputs paper;
  // 6.25 ns, bl 64: the paper's 53 / 17 either way.
  CHECK(thresholds(paper, 6250, 64, true).ks == 53);
  CHECK(thresholds(paper, 6250, 64, true).kg == 17);
  // 3.13 ns: ceil((34 + 6.52) / 3.13) - 1 = 12 flits arrive after STOP: ks = 64 - 12 = 52.
  CHECK(thresholds(paper, 3130, 64, true).ks == 52);
  CHECK(thresholds(paper, 3130, 64, true).kg == 17);
  SkewInputs refused = paper;
  refused.cp = 3130;
  CHECK(threshold_violation(refused).find("buffer would overflow") != std::string::npos);
  refused.ks = 52;
  CHECK(threshold_violation(refused).empty());
  // bl 256: the rule keeps the headroom (ks 245), the paper's series keeps 53.
  CHECK(thresholds(paper, 6250, 256, true).ks == 245);
  CHECK(thresholds(paper, 6250, 256, false).ks == 53);
}

TEST_CASE("a quick Figure 4 experiment writes every point's paper, analytic and simulated values", "[fbs][experiment][cli]") {
  const std::string out = std::string(SANVP_BINARY_DIR) + "/tb/fbs/experiment-quick";
  std::filesystem::remove_all(out);
  const Ran r = run_sanvp("fbs experiment --only fig4 --quick --rounds 2 --jobs 2 --no-plots --out " + out);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("fbs experiment: 2 simulated points") != std::string::npos);
  std::ifstream in(out + "/fbs_experiment.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["seed"] == 1);
  CHECK(j["rounds"] == 2);
  REQUIRE(j["points"].size() == 2);
  for (const auto& p : j["points"]) {
    CHECK(p["group"] == "fig4");
    CHECK(p["paper"].contains("skew_ps"));  // 298 ns at 50 ns, 197 ns at 140 ns
    CHECK(p["analytic"]["bound_bl_minus_ks_ps"].get<long long>() > 0);
    CHECK(p["analytic"]["bound_printed_ps"].get<long long>() > 0);
    const auto& s = p["simulated"];
    REQUIRE(s.is_object());
    CHECK(s["exit_code"] == 0);
    CHECK(s["skew_worst_ps"].get<long long>() > 0);
    CHECK(s["skew_worst_ps"].get<long long>() <= s["model_bound_ps"].get<long long>());
    CHECK(p["within_model_bound"] == true);
    CHECK(std::filesystem::exists(s["report"].get<std::string>()));
  }
  // rd = 140 ns: the dead zone (about 348 ns) is above both readings (197.48, 125.48 ns).
  CHECK(j["points"][1]["verdict"] == "ABOVE both readings; within the model bound");
  std::ifstream md(out + "/fig4.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  CHECK(text.find("| - | rd = 140 ns |") != std::string::npos);
}

TEST_CASE("sanvp fbs experiment refuses an unknown group", "[fbs][experiment][cli]") {
  const Ran r = run_sanvp("fbs experiment --only fig7 --no-plots --out " + std::string(SANVP_BINARY_DIR) + "/tb/fbs/experiment-bad");
  CHECK(r.code == 2);
  CHECK(r.out.find("--only: unknown group 'fig7'") != std::string::npos);
}
