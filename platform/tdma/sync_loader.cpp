#include "platform/tdma/sync_loader.hpp"

#include "firmware/tdma/tdma_proto.h"
#include "platform/tdma/node_loader.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

namespace {

// The master's sync sends as a send table of one sync period: each at its slot start (offset 0).
TdmaNodePlan node_plan(const SyncNodePlan& p) {
  TdmaNodePlan t;
  t.master = p.master;
  t.lead = p.slot_ticks / 2;
  t.tx_ticks = p.tx_ticks;
  t.apply = p.apply;
  t.syncs = p.master ? 0 : p.periods;
  t.cycles = p.periods;
  for (std::size_t j = 0; j < p.sends.size(); ++j) {
    TdmaEntry e;
    const std::uint32_t pos = p.sends[j].first;
    const std::uint32_t prev = j ? p.sends[j - 1].first : p.sends.back().first - p.period;  // wraps: unsigned
    e.delta_slots = pos - prev;
    e.delta_ticks = e.delta_slots * p.slot_ticks;
    e.kind = abi::kKindSync;
    e.stream = p.sends[j].second;
    e.route = p.routes.at(j);
    t.entries.push_back(e);
  }
  if (!p.sends.empty()) {
    t.first_slot = p.sends.front().first;
    t.first = p.start + std::uint64_t{t.first_slot} * p.slot_ticks;
  }
  return t;
}

}  // namespace

void run_sync_loader(host::Host& host, const SyncNodePlan& plan, SyncNodeOutcome& out, host::AppResult& res) {
  TdmaNodeOutcome o;
  run_tdma_loader(host, node_plan(plan), o, res);
  out.done = o.done;
  out.error = o.error;
  out.sent = o.sent;
  out.received = o.received;
  out.applied = o.applied;
  out.refused = o.refused;
}

}  // namespace sanvp::tdma
