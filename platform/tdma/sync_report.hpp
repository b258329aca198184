// The clock-synchronization run's report: the plan (clocks, sync slots, transmission times, the
// derived bound per slave) and the measurement (per sync period the worst and mean offset of the
// slaves from the master after the sync and just before the next; with syncs disabled, each
// slave's free-running slope against its ppm difference), with the thesis's figure beside it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/tdma/sync_loader.hpp"
#include "platform/tdma/sync_measure.hpp"
#include "platform/tdma/sync_run.hpp"

namespace sanvp::tdma {

nlohmann::json sync_plan_json(const SyncPlan& plan);

// Fills results["tdma_sync"]; returns the printed report (table and summary lines).
std::string sync_results(const SyncPlan& plan, const SyncMeter& meter, const std::vector<SyncNodeOutcome>& outcomes, nlohmann::json& results);

}  // namespace sanvp::tdma
