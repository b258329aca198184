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
  t.apply = p.apply;
  t.cycles = p.periods;
  t.first = p.start;
  t.slot_ticks = p.slot_ticks;
  TdmaBank b;
  b.cycle_slots = p.period;
  b.cycle_ticks = p.period * p.slot_ticks;
  b.tx_ticks = p.tx_ticks;
  b.syncs = p.master ? 0 : 1;
  for (std::size_t j = 0; j < p.sends.size(); ++j) {
    TdmaEntry e;
    e.pos_slots = p.sends[j].first;
    e.pos_ticks = e.pos_slots * p.slot_ticks;
    e.kind = abi::kKindSync;
    e.stream = p.sends[j].second;
    e.route = p.routes.at(j);
    b.entries.push_back(e);
  }
  t.versions.push_back(b);
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
