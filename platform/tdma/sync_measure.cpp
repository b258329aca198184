#include "platform/tdma/sync_measure.hpp"

#include <algorithm>

#include "firmware/tdma/tdma_proto.h"
#include "platform/tdma/sync_run.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

SyncMeter::SyncMeter(const SyncPlan& plan) : master_(plan.clocks.at(plan.index_of(plan.master))), clocks_(plan.clocks), nodes_(plan.nodes) {}

void SyncMeter::add(const nic::ProbeRecord& r) {
  if (r.node == master_.node) {
    if (r.tag == abi::kProbeSlot) master_probe_ = r, have_master_ = true;
    return;
  }
  if (r.tag == abi::kProbeBefore || r.tag == abi::kProbeAfter) slave_probes_.push_back(r);
}

std::vector<SyncSample> SyncMeter::samples() const {
  std::vector<SyncSample> out;
  if (!have_master_) return out;
  for (const nic::ProbeRecord& r : slave_probes_) {
    const auto it = std::lower_bound(nodes_.begin(), nodes_.end(), r.node);
    if (it == nodes_.end() || *it != r.node) continue;
    nic::ProbeRecord m = master_probe_;
    m.value = r.value;  // the master's boundary of the same slot, from its (unmoved) clock
    SyncSample s;
    s.node = r.node;
    s.slot = r.value;
    s.after = r.tag == abi::kProbeAfter;
    s.at_ps = fbs::boundary_time(master_, m);
    s.offset_ps = s.at_ps - fbs::boundary_time(clocks_[static_cast<std::size_t>(it - nodes_.begin())], r);
    out.push_back(s);
  }
  return out;
}

}  // namespace sanvp::tdma
