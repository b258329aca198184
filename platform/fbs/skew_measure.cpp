#include "platform/fbs/skew_measure.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "firmware/fbs/fbs_proto.h"
#include "hw/base/log.hpp"

namespace sanvp::fbs {

SkewMeter::SkewMeter(std::vector<ClockOfNode> clocks) : clocks_(std::move(clocks)), at_(clocks_.size()) {
  for (std::size_t i = 0; i < clocks_.size(); ++i) index_[clocks_[i].node] = i;
}

double boundary_time(const ClockOfNode& c, const nic::ProbeRecord& r) {
  const std::uint64_t b = c.start + static_cast<std::uint64_t>(r.value) * c.slot_ticks;
  // Signed: a probe is never before its boundary, but a wrong start would show as negative.
  // The RTC counts whole ticks: the probe falls `phase` into the current one (the oscillator's
  // ticks fall at multiples of its period), and the boundary was on a tick edge.
  const double t = static_cast<double>(r.time);
  const double phase = std::fmod(t, c.tick_ps);
  const double since = static_cast<double>(static_cast<std::int64_t>(r.rtc - b)) * c.tick_ps;
  return t - phase - since;
}

void SkewMeter::add(const nic::ProbeRecord& r) {
  if (r.tag != fbs_abi::kProbeSlot) return;
  const auto it = index_.find(r.node);
  if (it == index_.end()) return;
  at_[it->second][r.value] = boundary_time(clocks_[it->second], r);
}

SlotTrace::SlotTrace(std::vector<ClockOfNode> clocks, Time hold) : clocks_(std::move(clocks)), slot_(clocks_.size()), hold_(hold) {
  for (std::size_t i = 0; i < clocks_.size(); ++i) index_[clocks_[i].node] = i;
}

void SlotTrace::declare() {
  for (std::size_t i = 0; i < clocks_.size(); ++i) slot_[i].declare(fmt::format("n{}.fbs", clocks_[i].node), "slot", 32, 0xFFFFFFFFu);
}

void SlotTrace::add(const nic::ProbeRecord& r) {
  if (r.tag != fbs_abi::kProbeSlot) return;
  const auto it = index_.find(r.node);
  if (it == index_.end() || !slot_[it->second].on()) return;
  // An RTC tick falls on the first whole ps at or after its real instant (Oscillator::time_of_tick):
  // the ceiling is the ps at which the RTC reads the boundary and a timed send leaves. The
  // tolerance keeps double rounding of an exact instant from moving it a ps later.
  const double b = std::max(0.0, std::ceil(boundary_time(clocks_[it->second], r) - 1e-6));
  const Time open = r.time > hold_ ? r.time - hold_ : 0;  // the VCD is written up to here at most
  Time t = static_cast<Time>(b);
  if (t < open) {
    if (late_++ == 0)
      log::warn("n{}: slot {} probed {} after its boundary, more than the VCD holds back ({}): nN.fbs.slot drawn late",
                r.node, r.value, format_time(r.time - t), format_time(hold_));
    t = open;
  }
  slot_[it->second].change(t, r.value);
}

bool SkewMeter::boundary(std::size_t i, std::uint32_t slot, double& t) const {
  const auto it = at_.at(i).find(slot);
  if (it == at_[i].end()) return false;
  t = it->second;
  return true;
}

std::vector<SlotSkew> SkewMeter::skews() const {
  std::vector<SlotSkew> out;
  if (at_.empty()) return out;
  for (const auto& [slot, t0] : at_[0]) {
    std::vector<double> t{t0};
    for (std::size_t i = 1; i < at_.size(); ++i) {
      double x = 0;
      if (!boundary(i, slot, x)) break;
      t.push_back(x);
    }
    if (t.size() != at_.size()) continue;
    SlotSkew s;
    s.slot = slot;
    const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
    s.min = static_cast<Time>(std::llround(*lo));
    s.max = static_cast<Time>(std::llround(*hi));
    s.skew_ps = *hi - *lo;
    double sum = 0;
    std::size_t pairs = 0;
    for (std::size_t a = 0; a < t.size(); ++a)
      for (std::size_t b = a + 1; b < t.size(); ++b, ++pairs) sum += std::fabs(t[a] - t[b]);
    s.mean_pair_ps = pairs ? sum / static_cast<double>(pairs) : 0;
    out.push_back(s);
  }
  return out;
}

nlohmann::json skew_stats(std::vector<double> v) {
  nlohmann::json j{{"count", v.size()}};
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (const double x : v) sum += x;
  const auto pct = [&](double p) { return v[static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1]; };
  j["max_ps"] = std::llround(v.back());
  j["mean_ps"] = std::llround(sum / static_cast<double>(v.size()));
  j["p50_ps"] = std::llround(pct(0.5));
  j["p90_ps"] = std::llround(pct(0.9));
  j["p99_ps"] = std::llround(pct(0.99));
  j["min_ps"] = std::llround(v.front());
  return j;
}

}  // namespace sanvp::fbs
