// What `sanvp tdma experiment` writes: DIR/results.json (every point's parameters, bounds and
// measured numbers, and the analytic tables) and DIR/table.md (the same as markdown tables, each
// number beside the thesis's where it gives one); every write checked.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/tdma/experiment_run.hpp"

namespace sanvp::tdma {

nlohmann::json experiment_json(const ExperimentOptions& o, const std::vector<ExpResult>& r);
std::string experiment_markdown(const ExperimentOptions& o, const std::vector<ExpResult>& r);
void write_experiment(const ExperimentOptions& o, const std::vector<ExpResult>& r);
// One line per point whose result contradicts the thesis's claim (misses or blocking at a safe
// margin, none below the bound), and the counts; the exit code is 3 when a run failed.
std::string experiment_summary(const std::vector<ExpResult>& r);
// A margin at or above T_maxdrift - T_a must give no blocking and no miss (thesis 4.4).
bool margin_safe(const ExpResult& r);

}  // namespace sanvp::tdma
