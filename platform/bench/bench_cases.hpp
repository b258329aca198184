// The cases of `sanvp bench` (docs/bench.md): what each one simulates, at full size and with
// --quick, and the figures the parent derives from what a child measured.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sanvp::bench {

enum class Kind { Fabric, Iss, BtinExperiment, BtinFlit };

// The size of a case: fabric cases use rows/cols (rows == 0: one `ports`-port switch with a
// node on every port), duration and load; the BTIN cases nodes/switches/members/runs.
struct Shape {
  int rows = 0, cols = 0, ports = 8;
  double load = 0;
  std::string duration;
  int nodes = 0, switches = 0, members = 0, runs = 0;
};

struct BenchCase {
  std::string name;     // `--case NAME`, the JSON key
  std::string section;  // fabric | size | length | iss | btin: where the table shows it
  std::string what;     // one line for the table and the JSON
  Kind kind = Kind::Fabric;
  Shape full, quick;
};

const std::vector<BenchCase>& bench_cases();
const BenchCase* find_case(const std::string& name);

// One derived figure: `value` in `unit`; `higher_better` says which way a ratio is good.
struct Figure {
  std::string case_name, key, label, unit;
  double value = 0;
  bool higher_better = true;
};

// The figures of one case from a child's result line (its "counts") and the parent's measures
// ("cpu_s", "wall_s", "peak_rss_kb").
std::vector<Figure> case_figures(const BenchCase& c, const nlohmann::json& sample);
// Figures across cases: cost per crossing relative to the 16-switch mesh, 100 ms / 1 ms of the
// 4x4 mesh. `figures` holds the per-case ones; the cross-case ones are appended (a missing
// case leaves its ratio out).
void add_ratio_figures(std::vector<Figure>& figures);

}  // namespace sanvp::bench
