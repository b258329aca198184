// The FBS run's report: what was planned (clocks, schedule, period) and what was measured (the
// skew after every round and before the next, per NIC pauses), beside the analytic bounds of
// the skew model (Eq. 5/8/10, both readings of GAP3) and Eq. 11's interval.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/fbs/fbs_run.hpp"

namespace sanvp::fbs {

nlohmann::json plan_json(const RunPlan& plan, const RunInput& in);

// Fills results["fbs"]; returns the summary lines.
std::string fbs_results(ParamValues& pv, const RunPlan& plan, const RunInput& in, const SkewMeter& meter,
                        const std::vector<NodeOutcome>& outcomes, nlohmann::json& results);

}  // namespace sanvp::fbs
