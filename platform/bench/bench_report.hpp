// The report of `sanvp bench`: the figures as a table (stdout) and as JSON (--json), each with
// the host (CPU model, cores), this binary's build (type, compiler), the date and the seed.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/bench/bench_runner.hpp"

namespace sanvp::bench {

// CPU model (/proc/cpuinfo "model name") and the number of online cores.
nlohmann::json host_info();

struct BenchReport {
  nlohmann::json doc;               // the JSON document
  std::string table;                // the printed table
  std::vector<std::string> errors;  // one per failed child run, with its stderr
};

BenchReport make_report(const std::vector<CaseResult>& results, const BenchOptions& o);

}  // namespace sanvp::bench
