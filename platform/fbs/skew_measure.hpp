// Skew of the NICs' slot clocks, measured from the probe timeline against global time (the
// firmware never sees global time; the probes do). Each NIC probes slot boundary n shortly after
// it passes (kProbeSlot, value n); the probe records global time and the RTC at that instant, so
// the boundary's global time is the probe time minus the ticks since the boundary (RTC now minus
// the boundary's RTC value start + n * slot_ticks) at the NIC's actual tick period. The skew at
// slot n is the largest pairwise difference of boundary times: max - min over the NICs. The RTC
// reads whole ticks, so the probe's phase within its tick is taken off too (exact for a static
// frequency error; with nic.osc.walk_ppm the phase is approximate, to a fraction of a tick).
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "hw/base/time.hpp"
#include "hw/base/trace.hpp"
#include "hw/nic/probe.hpp"

namespace sanvp::fbs {

struct ClockOfNode {
  std::uint32_t node = 0;
  std::uint64_t start = 0;  // RTC at slot 0
  double tick_ps = 0;       // actual oscillator period (nominal period / (1 + ppm 1e-6))
  std::uint32_t slot_ticks = 0;  // one slot in its nominal ticks
};

// Global time (ps) at which the slot boundary that kProbeSlot record `r` marks passed on `c`.
double boundary_time(const ClockOfNode& c, const nic::ProbeRecord& r);

struct SlotSkew {
  std::uint32_t slot = 0;
  Time min = 0, max = 0;      // earliest and latest boundary (global ps)
  double skew_ps = 0;         // max - min
  double mean_pair_ps = 0;    // mean |t_i - t_j| over all pairs
};

class SkewMeter {
 public:
  explicit SkewMeter(std::vector<ClockOfNode> clocks);
  // Feed every probe (the run's probe sink); other tags are ignored.
  void add(const nic::ProbeRecord& r);
  // Boundary time of slot `slot` at node index i (global ps), if probed.
  bool boundary(std::size_t i, std::uint32_t slot, double& t) const;
  // Slots every NIC probed, ascending, with their skew.
  std::vector<SlotSkew> skews() const;
  std::size_t nodes() const { return clocks_.size(); }

 private:
  std::vector<ClockOfNode> clocks_;
  std::map<std::uint32_t, std::size_t> index_;        // node id -> index
  std::vector<std::map<std::uint32_t, double>> at_;  // per node index: slot -> boundary time
};

// The slot clock in the waves (--vcd): per NIC a 32-bit signal nN.fbs.slot that takes the value
// n at the instant slot boundary n passed (boundary_time), not at its probe, which comes a few
// firmware instructions later, so the waves line boundaries up with the packets timed sends start
// there. All ones (-1 signed) before slot 0. Only probed boundaries show (fbs.probe_every).
// A boundary is known only at its probe, in the past: the run holds the VCD back by `hold`
// (RunSpec::trace_hold) so that the change is still written in order. A probe later than that
// after its boundary (the firmware queues each slot's packet before the next boundary, so it
// probes within a slot) is drawn at the earliest instant still open, and counted in late().
class SlotTrace {
 public:
  SlotTrace(std::vector<ClockOfNode> clocks, Time hold);
  void declare();                        // from RunSpec::declare_traces: the tracer is open
  void add(const nic::ProbeRecord& r);   // the run's probe sink; other tags are ignored
  std::uint64_t late() const { return late_; }

 private:
  std::vector<ClockOfNode> clocks_;
  std::map<std::uint32_t, std::size_t> index_;  // node id -> index
  std::vector<TraceSignal> slot_;
  Time hold_;
  std::uint64_t late_ = 0;
};

// Summary statistics (ps) of a set of skews: count, max, mean, p50, p90, p99.
nlohmann::json skew_stats(std::vector<double> v);

}  // namespace sanvp::fbs
