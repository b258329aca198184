// The TDMA run's report: the plan (cycle, slot, early sending: T_a, T_margin, T_early, the
// staging option) and, per stream, messages expected, sent and delivered, deadline misses,
// staging misses, latency (release to the last byte stored) min/mean/max and jitter, the time
// its reserved packets were blocked and the early-sending wait; then the totals, the first
// collision (time, switch, port, both packets), the staging slack and the timed-send accuracy.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/tdma/node_loader.hpp"
#include "platform/tdma/tdma_run.hpp"

namespace sanvp::tdma {

nlohmann::json run_plan_json(const TdmaRunPlan& plan);
nlohmann::json run_results_json(const TdmaRunPlan& plan, const TdmaRunResults& res, const std::vector<TdmaNodeOutcome>& outcomes);

// Fills results["tdma_run"]; returns the printed report.
std::string run_results(const TdmaRunPlan& plan, const TdmaRunResults& res, const std::vector<TdmaNodeOutcome>& outcomes, nlohmann::json& results);

}  // namespace sanvp::tdma
