// One `sanvp tdma schedule` run: the streams of a stream file (with the clock-sync streams it
// asks for) on a network with its routes, scheduled (scheduler.hpp) and checked (check.hpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/tdma/check.hpp"
#include "platform/tdma/network.hpp"
#include "platform/tdma/scheduler.hpp"
#include "platform/tdma/stream.hpp"
#include "platform/tdma/tdma_params.hpp"

namespace sanvp::tdma {

struct ScheduleRun {
  StreamFile file;
  TdmaParams params;
  std::vector<Stream> streams;  // sync streams first, then the file's
  TdmaNetwork net;
  TdmaSchedule schedule;
  TdmaCheck check;
};

// Pure: the same inputs give the same run. `routes` are the first-choice routes of `topo`
// (`routing` names their rule: alternates follow it). UserError for bad streams or parameters.
ScheduleRun run_tdma_schedule(const StreamFile& file, const std::string& net_name, const Topology& topo, const RouteTable& routes,
                              const std::string& routing, const TdmaParams& params);

}  // namespace sanvp::tdma
