// Offsets of the slaves' clocks from the master's, measured from the probe timeline against
// global time (the firmware never sees it). A clock's value at a boundary b (slot n: start +
// n x slot_ticks) is passed at a global instant that any probe of that NIC gives, as long as its
// RTC was not moved between the two (fbs::boundary_time: the probe's time, minus its phase within
// the tick, minus the ticks since b at the NIC's actual period). The master never moves its RTC,
// so any of its probes gives its boundary times; a slave probes just before it sets its RTC from
// the packet of slot n (value n: its clock before the sync, at boundary n) and just after (value
// n + 1: its clock after the sync, at the next boundary). The offset is t_master(b) - t_slave(b):
// positive when the slave's clock is ahead.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/nic/probe.hpp"
#include "platform/fbs/skew_measure.hpp"

namespace sanvp::tdma {

struct SyncPlan;

struct SyncSample {
  std::uint32_t node = 0;
  std::uint32_t slot = 0;   // the boundary measured
  bool after = false;       // true: just after the sync of slot - 1; false: just before the sync of slot
  double at_ps = 0;         // global time of the master's boundary
  double offset_ps = 0;     // slave minus master
};

class SyncMeter {
 public:
  explicit SyncMeter(const SyncPlan& plan);
  void add(const nic::ProbeRecord& r);  // the run's probe sink; other tags and nodes are ignored
  std::vector<SyncSample> samples() const;  // in probe order
  bool master_seen() const { return have_master_; }

 private:
  fbs::ClockOfNode master_;
  nic::ProbeRecord master_probe_{};
  bool have_master_ = false;
  std::vector<fbs::ClockOfNode> clocks_;       // per node index of the plan
  std::vector<std::uint32_t> nodes_;
  std::vector<nic::ProbeRecord> slave_probes_;
};

}  // namespace sanvp::tdma
