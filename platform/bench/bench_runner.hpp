// The parent side of `sanvp bench`: runs each selected case in a child process (this binary, and
// with --against another one, alternating), measures the child's CPU time and peak RSS (wait4)
// and wall time, and keeps the best of --repeat runs.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/bench/bench_cases.hpp"

namespace sanvp::bench {

struct BenchOptions {
  std::string only;     // regular expression over case names (empty: every case)
  bool quick = false;
  std::string json;     // output file (empty: none)
  std::string against;  // the other sanvp binary (empty: none)
  int repeat = 1;
  std::uint64_t seed = 1;
};

// One child run: the child's result line plus the parent's measures, or why it failed.
struct Sample {
  bool ok = false;
  std::string error;       // exit status and the child's stderr when !ok
  nlohmann::json result;   // the child's JSON line, with "cpu_s", "wall_s", "peak_rss_kb" added
};

// The runs of one case by one binary; `best` indexes the fastest successful run (-1: none).
struct CaseRuns {
  std::vector<Sample> runs;
  int best = -1;
  const Sample* best_sample() const { return best >= 0 ? &runs[static_cast<std::size_t>(best)] : nullptr; }
};

struct CaseResult {
  const BenchCase* c = nullptr;
  CaseRuns self, other;  // `other` only with --against
};

// The cases --only selects, in table order; a UserError for a bad expression or no match.
std::vector<const BenchCase*> select_cases(const std::string& only);

// Runs every case; progress lines go to stderr. `exe` is this binary.
std::vector<CaseResult> run_cases(const std::vector<const BenchCase*>& cases, const BenchOptions& o, const std::string& exe);

// Checks that --against names an executable file (UserError otherwise).
void check_binary(const std::string& path, const std::string& option);

}  // namespace sanvp::bench
