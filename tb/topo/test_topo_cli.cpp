// The topology commands as users run them: gen -> check -> show/dot -> routes.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/base/error.hpp"

namespace fs = std::filesystem;

namespace {
std::string source_dir() { const char* d = std::getenv("SANVP_SOURCE_DIR"); return d ? d : SANVP_TEST_SOURCE_DIR; }
std::string sanvp_bin() { const char* b = std::getenv("SANVP_BIN"); return b ? b : SANVP_TEST_BIN; }
// Runs `sanvp args`, returns (exit code, stdout+stderr).
std::pair<int, std::string> run_sanvp(const std::string& args) {
  const fs::path out = fs::temp_directory_path() / fmt::format("sanvp-cli-{}.txt", ::getpid());
  const int st = std::system(fmt::format("{} {} > {} 2>&1", sanvp_bin(), args, out.string()).c_str());
  std::ifstream f(out);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  fs::remove(out);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, text};
}
}  // namespace

TEST_CASE("topo gen writes a file that topo check accepts, show exports Graphviz, routes prints every pair") {
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-topo-cli-{}", ::getpid());
  fs::create_directories(d);
  const std::string f = (d / "irr.yaml").string();
  auto [rc, out] = run_sanvp(fmt::format("topo gen irregular switches=10 nodes=20 f=0.75 seed=3 -o {}", f));
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("switches: 10   nodes: 20"));
  std::tie(rc, out) = run_sanvp("topo check " + f);
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("routes: up-down (380 node pairs"));
  REQUIRE_THAT(out, Catch::Contains("acyclic"));
  std::tie(rc, out) = run_sanvp(fmt::format("topo show {} --dot {}", f, (d / "irr.dot").string()));
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("sw0  "));
  std::ifstream dot(d / "irr.dot");
  std::string dtext((std::istreambuf_iterator<char>(dot)), std::istreambuf_iterator<char>());
  REQUIRE(dtext.rfind("graph \"", 0) == 0);
  REQUIRE_THAT(dtext, Catch::Contains("n19 -- sw"));
  std::tie(rc, out) = run_sanvp("routes " + f);
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("n0 -> n19: "));
  fs::remove_all(d);
}

TEST_CASE("routes and topo check flag the cyclic route set with exit 2") {
  auto [rc, out] = run_sanvp(fmt::format("routes {}/platform/scenarios/ring-deadlock.yaml", source_dir()));
  REQUIRE(rc == sanvp::kExitUserError);
  REQUIRE_THAT(out, Catch::Contains("n0 -> n2: 1 1 0"));
  REQUIRE_THAT(out, Catch::Contains("has a cycle of 4 channels"));
  std::tie(rc, out) = run_sanvp(fmt::format("topo check {}/platform/scenarios/ring-deadlock.yaml", source_dir()));
  REQUIRE(rc == sanvp::kExitUserError);
  // An infeasible generator request from the command line names the argument.
  std::tie(rc, out) = run_sanvp("topo gen irregular switches=75 nodes=256 f=0.5");
  REQUIRE(rc == sanvp::kExitUserError);
  REQUIRE_THAT(out, Catch::Contains("error: sanvp topo gen: f: f=0.5 too small to connect 75 switches"));
}

TEST_CASE("the README's annotated scenario is the example file that CI runs, verbatim") {
  auto slurp = [](const std::string& p) {
    std::ifstream f(p);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const std::string readme = slurp(source_dir() + "/README.md");
  const std::string example = slurp(source_dir() + "/platform/scenarios/readme-example.yaml");
  REQUIRE(example.size() > 500);
  REQUIRE_THAT(readme, Catch::Contains("```yaml\n" + example + "```"));
}

TEST_CASE("routes --alternates --self prints the alternates and U-turns firmware gets, and without them the output is unchanged") {
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-topo-trunks-{}", ::getpid());
  fs::create_directories(d);
  const std::string f = (d / "trunks.yaml").string();
  std::ofstream(f) << "switches: 2\nnodes: [\"0:0\", \"1:0\"]\nlinks:\n  - {a: \"0:1\", b: \"1:1\"}\n  - {a: \"0:2\", b: \"1:2\"}\n";
  auto [rc, out] = run_sanvp("routes " + f);
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("n0 -> n1: 1 0\nn1 -> n0: 1 0\n"));
  REQUIRE_THAT(out, !Catch::Contains("alt") && !Catch::Contains("U-turn"));
  std::tie(rc, out) = run_sanvp("routes " + f + " --alternates 2 --self");
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("n0 -> n0: 0 (U-turn)\nn0 -> n1: 1 0\nn0 -> n1 alt 1: 2 0\nn1 -> n0: 1 0\nn1 -> n0 alt 1: 2 0\nn1 -> n1: 0 (U-turn)\n"));
  REQUIRE_THAT(out, Catch::Contains("acyclic"));
  // A scenario asks for them with routing.alternates.
  const std::string sc = (d / "s.yaml").string();
  std::ofstream(sc) << "topology: trunks.yaml\nrouting: {alternates: 1, extra_hops: 0}\n";
  std::tie(rc, out) = run_sanvp("routes " + sc);
  REQUIRE(rc == 0);
  REQUIRE_THAT(out, Catch::Contains("n0 -> n1 alt 1: 2 0"));
  std::ofstream(sc) << "topology: trunks.yaml\nrouting: {alternates: 300}\n";
  std::tie(rc, out) = run_sanvp("routes " + sc);
  REQUIRE(rc == 2);
  REQUIRE_THAT(out, Catch::Contains("routing.alternates"));
  fs::remove_all(d);
}
