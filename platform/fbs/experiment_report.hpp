// What `sanvp fbs experiment` writes: fbs_experiment.json (every point: parameters, the paper's
// value, the analytic values in both readings, the model-consistent bound where derived, the
// simulated skew and the verdict) and one markdown table per group, the three side by side.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/fbs/experiment_run.hpp"
#include "platform/sim/report.hpp"

namespace sanvp::fbs {

// The rule for fc.ks and fc.kg when cp or bl change, in words (for the JSON and the tables).
extern const char* const kThresholdRule;

nlohmann::json experiment_json(const ExperimentOptions& o, const std::vector<ExpResult>& r);
// The markdown table of one group (table3, table4, fig4, fig5, fig6); empty when it has no points.
std::string experiment_markdown(const std::string& group, const std::vector<ExpResult>& r);
// Writes DIR/fbs_experiment.json, DIR/<group>.md for each group run and DIR/fbs_experiment.md (the
// rule, every table, the summary); every write checked.
void write_experiment(const ExperimentOptions& o, const std::vector<ExpResult>& r);
// One line per point above an analytic bound, and the counts (stdout summary).
std::string experiment_summary(const std::vector<ExpResult>& r);

}  // namespace sanvp::fbs
