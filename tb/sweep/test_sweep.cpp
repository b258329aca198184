// Sweeps: plan parsing, a 6-point sweep run as processes merged into CSV/JSON and plotted, and a
// sweep whose points hang reports them and exits non-zero.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "platform/sweep/sweep_plan.hpp"

using namespace sanvp;
namespace fs = std::filesystem;

namespace {
std::string source_dir() { const char* d = std::getenv("SANVP_SOURCE_DIR"); return d ? d : SANVP_TEST_SOURCE_DIR; }
std::string sanvp_bin() { const char* b = std::getenv("SANVP_BIN"); return b ? b : SANVP_TEST_BIN; }
int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
std::vector<std::string> lines(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> v;
  for (std::string l; std::getline(f, l);) v.push_back(l);
  return v;
}
}  // namespace

TEST_CASE("sweep plans: ranges with units, lists, grids") {
  auto a = parse_vary("traffic.load=0.1:0.6:0.1");
  REQUIRE(a.key == "traffic.load");
  REQUIRE(a.values == std::vector<std::string>{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6"});
  REQUIRE(parse_vary("switch.rd=50ns:150ns:50ns").values == std::vector<std::string>{"50ns", "100ns", "150ns"});
  REQUIRE(parse_vary("fc.bl=64:256:64").values == std::vector<std::string>{"64", "128", "192", "256"});
  REQUIRE(parse_vary("traffic.pattern=uniform,hotspot").values == std::vector<std::string>{"uniform", "hotspot"});
  auto pts = sweep_points({parse_vary("a=1:2:1"), parse_vary("b=x,y,z")});
  REQUIRE(pts.size() == 6);
  REQUIRE(pts[0] == std::vector<std::pair<std::string, std::string>>{{"a", "1"}, {"b", "x"}});
  REQUIRE(pts[5] == std::vector<std::pair<std::string, std::string>>{{"a", "2"}, {"b", "z"}});
  REQUIRE_THROWS_AS(parse_vary("a=1:2"), UserError);
  REQUIRE_THROWS_AS(parse_vary("a=1ns:2us:1ns"), UserError);
  REQUIRE_THROWS_AS(parse_vary("a=3:1:1"), UserError);
  REQUIRE_THROWS_AS(parse_vary("a=1:2:0"), UserError);
}

TEST_CASE("a sweep of 6 points gives a CSV of 6 rows, a merged JSON and a PNG") {
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-sweep-{}", ::getpid());
  fs::remove_all(d);
  const int rc = run(fmt::format("{} sweep {}/platform/scenarios/single-switch-uniform.yaml --vary traffic.load=0.1:0.6:0.1 "
                                 "--set duration=10us --jobs 2 --out {} > {}.out.txt 2> {}.progress.txt",
                                 sanvp_bin(), source_dir(), d.string(), d.string(), d.string()));
  REQUIRE(rc == 0);
  const auto csv = lines(d / "sweep.csv");
  REQUIRE(csv.size() == 7);  // header + 6 points
  REQUIRE(csv[0].rfind("point,traffic.load,exit_code,status,", 0) == 0);
  for (int i = 1; i <= 6; ++i) {
    REQUIRE(csv[i].rfind(fmt::format("{},0.{},0,completed,", i - 1, i), 0) == 0);
  }
  nlohmann::json j;
  std::ifstream(d / "sweep.json") >> j;
  REQUIRE(j["points"].size() == 6);
  REQUIRE(j["points"][3]["set"]["traffic.load"] == "0.4");
  // Each point ran with its own load: more packets at higher load.
  REQUIRE(j["points"][5]["results"]["packets_created"].get<int>() > j["points"][0]["results"]["packets_created"].get<int>());
  REQUIRE(run(fmt::format("/usr/bin/python3 {}/scripts/plot_sweep.py {} > /dev/null", source_dir(), (d / "sweep.csv").string())) == 0);
  const fs::path png = d / "latency_vs_traffic.load.png";
  REQUIRE(fs::exists(png));
  std::ifstream f(png, std::ios::binary);
  char magic[8] = {};
  f.read(magic, 8);
  REQUIRE(std::string(magic + 1, 3) == "PNG");
  REQUIRE(fs::file_size(png) > 5000);
  // Progress: one line per finished point on stderr.
  const auto progress = lines(d.string() + ".progress.txt");
  REQUIRE(std::count_if(progress.begin(), progress.end(), [](const std::string& l) { return l.find("] point ") != std::string::npos; }) == 6);
  fs::remove_all(d);
  fs::remove(d.string() + ".out.txt");
  fs::remove(d.string() + ".progress.txt");
}

TEST_CASE("a sweep whose points hang marks them and exits 3") {
  ::alarm(120);  // never hang CI
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-sweep-hang-{}", ::getpid());
  fs::remove_all(d);
  const int rc = run(fmt::format("{} sweep {}/platform/scenarios/ring-deadlock.yaml --vary traffic.payload=512,1024 --jobs 2 --out {} "
                                 "> /dev/null 2>&1", sanvp_bin(), source_dir(), d.string()));
  REQUIRE(rc == kExitSimError);
  const auto csv = lines(d / "sweep.csv");
  REQUIRE(csv.size() == 3);
  REQUIRE(csv[1].rfind("0,512,3,hung,", 0) == 0);
  REQUIRE(csv[2].rfind("1,1024,3,hung,", 0) == 0);
  fs::remove_all(d);
}

TEST_CASE("a sweep with a bad key stops before running anything") {
  const int rc = run(fmt::format("{} sweep {}/platform/scenarios/single-switch-uniform.yaml --vary traffic.lod=0.1:0.2:0.1 "
                                 "--out /nonexistent/x > /dev/null 2>&1", sanvp_bin(), source_dir()));
  REQUIRE(rc == kExitUserError);
}
