#include "platform/tdma/schedule_run.hpp"

namespace sanvp::tdma {

ScheduleRun run_tdma_schedule(const StreamFile& file, const std::string& net_name, const Topology& topo, const RouteTable& routes,
                              const std::string& routing, const TdmaParams& params) {
  ScheduleRun r;
  r.file = file;
  r.params = params;
  std::vector<int> nodes;
  for (const auto& n : topo.nodes) nodes.push_back(n.id);
  r.streams = streams_for(file, nodes, params.sync_period, params.sync_deadline, params.sync_slots);
  r.net = tdma_network(net_name, topo, routes, routing, r.streams, RouteChoice{params.alternates, params.extra_hops});
  r.schedule = schedule_streams(r.net, r.streams, SchedulerConfig{params.max_cycle, params.tie_break});
  r.check = check_tdma_schedule(r.net.topo, r.streams, r.schedule);
  return r;
}

}  // namespace sanvp::tdma
