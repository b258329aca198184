// Helpers shared by the scenario tests: where the source tree and the sanvp binary are, scratch
// folders and files, and running a scenario file in this process.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "platform/scenario/scenario.hpp"
#include "tb/topo/topo_test_util.hpp"
#include "tb/common/test_run.hpp"

namespace sanvp::test {

namespace fs = std::filesystem;

// CTest's environment first; the configure-time paths otherwise.
inline std::string source_dir() {
  const char* d = std::getenv("SANVP_SOURCE_DIR");
  return d ? d : SANVP_TEST_SOURCE_DIR;
}
inline std::string sanvp_bin() {
  const char* b = std::getenv("SANVP_BIN");
  return b ? b : SANVP_TEST_BIN;
}

// A scratch folder <tmp>/sanvp-<prefix>-<tag>-<pid>.
inline fs::path temp_dir(const std::string& prefix, const std::string& tag) {
  fs::path d = fs::temp_directory_path() / fmt::format("sanvp-{}-{}-{}", prefix, tag, ::getpid());
  fs::create_directories(d);
  return d;
}
inline void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs a scenario file as `sanvp run FILE --check` does, without report file or summary; the
// loaded scenario in `out` if given.
inline RunResult run_file(const std::string& file, const std::vector<std::string>& sets, ParamValues& pv, Scenario* out = nullptr) {
  Scenario s = load_scenario(file, sets, pv);
  RunOptions opt = test::checked_run_options();
  opt.scenario = s.name;
  if (s.seed) opt.seed = *s.seed;
  RunResult r = run_simulation(pv, opt, scenario_run_spec(s));
  if (out) *out = s;
  return r;
}

}  // namespace sanvp::test
