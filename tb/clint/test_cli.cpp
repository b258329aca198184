// `sanvp clint`: bad input exits 2 with one line; the same inputs give a byte-identical report.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {
std::string bin() {
  const char* b = std::getenv("SANVP_BIN");
  return b ? b : SANVP_BIN_PATH;
}
int run(const std::string& args) {
  int rc = std::system(fmt::format("{} {} >/dev/null 2>&1", bin(), args).c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("sanvp clint rejects bad input with exit code 2", "[cli]") {
  CHECK(run("clint --arch B5 --cycles 1e4") == 2);
  CHECK(run("clint --loads 1.5 --cycles 1e4") == 2);
  CHECK(run("clint --set clint.arbiter=fifo --cycles 1e4") == 2);
  CHECK(run("clint --set clint_bulk.arb_lead=9us --cycles 1e4") == 2);
  CHECK(run("clint --bursty sometimes --cycles 1e4") == 2);
  CHECK(run("clint --preset fig99 --cycles 1e4") == 2);
  CHECK(run("clint --cycles 1e4 --json /proc/sanvp_no_such_dir/out.json") == 2);
}

TEST_CASE("sanvp clint --json creates the report's directory", "[cli]") {
  std::remove("clint_json_dir/sub/r.json");
  REQUIRE(run("clint --arch B4 --loads 0.2 --cycles 1e4 --json clint_json_dir/sub/r.json") == 0);
  CHECK(slurp("clint_json_dir/sub/r.json").find("\"points\"") != std::string::npos);
}

TEST_CASE("sanvp clint reports are byte-identical for the same inputs", "[cli]") {
  const std::string args = "clint --arch B1,B2,B3,B4,Q1,Q2 --loads 0.3 --bursty both --cycles 2e5 --seed 7";
  REQUIRE(run(args + " --json clint_det_a.json --vcd clint_det_a.vcd") == 0);
  REQUIRE(run(args + " --json clint_det_b.json --vcd clint_det_b.vcd") == 0);
  const std::string a = slurp("clint_det_a.json"), b = slurp("clint_det_b.json");
  REQUIRE(a.size() > 1000);
  CHECK(a == b);
  const std::string va = slurp("clint_det_a.vcd"), vb = slurp("clint_det_b.vcd");
  REQUIRE(va.find("$enddefinitions") != std::string::npos);
  CHECK(va == vb);
  REQUIRE(run("clint --arch B4 --loads 0.3 --cycles 2e5 --seed 8 --json clint_det_c.json") == 0);
  CHECK(slurp("clint_det_c.json") != a);
}
