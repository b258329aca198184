#include "hw/nic/oscillator.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::nic {

Oscillator::Oscillator(const OscillatorConfig& cfg, Rng rng)
    : hz_(static_cast<std::uint64_t>(std::llround(cfg.freq_mhz * 1e6))),
      ppb0_(std::llround(cfg.ppm * 1000.0)),
      walk_ppb_(cfg.walk_ppm * 1000.0),
      step_(cfg.walk_step),
      rng_(rng) {
  // The declared ranges keep the frequency at 1 Hz or more (counted in whole Hz).
  cfg.check_ranges();
  if (cfg.walk_ppm > 0.0 && cfg.walk_step == 0) throw UserError("nic.osc.walk_step must be > 0 with walk_ppm");
  segs_.push_back(Segment{0, 0, ppb0_});
}

double Oscillator::gaussian() {
  // Box-Muller on the component's own stream (deterministic per seed and name).
  const double u1 = 1.0 - rng_.uniform01(), u2 = rng_.uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

void Oscillator::extend_to(Time t) {
  if (walk_ppb_ <= 0.0) return;
  while (segs_.back().start + step_ <= t) {
    const Segment& s = segs_.back();
    Segment n;
    n.start = s.start + step_;
    n.acc = s.acc + static_cast<u128>(step_) * rate(s);
    // Keep the frequency physical: the walk never reaches -100 % (ppb > -1e9).
    n.ppb = std::max<std::int64_t>(s.ppb + std::llround(gaussian() * walk_ppb_), -999999999ll);
    segs_.push_back(n);
  }
}

std::size_t Oscillator::segment_at(Time t) const {
  auto it = std::upper_bound(segs_.begin(), segs_.end(), t, [](Time v, const Segment& s) { return v < s.start; });
  return static_cast<std::size_t>(it - segs_.begin()) - 1;
}

std::uint64_t Oscillator::ticks(Time t) {
  extend_to(t);
  const Segment& s = segs_[segment_at(t)];
  const u128 num = s.acc + static_cast<u128>(t - s.start) * rate(s);
  return static_cast<std::uint64_t>(num / kUnit);
}

Time Oscillator::time_of_tick(std::uint64_t n) {
  const u128 want = static_cast<u128>(n) * kUnit;
  // Generate segments until one starts at or beyond the count, then search the last segment
  // starting below it.
  if (walk_ppb_ > 0.0)
    while (segs_.back().acc < want) extend_to(segs_.back().start + step_);
  auto it = std::lower_bound(segs_.begin(), segs_.end(), want, [](const Segment& s, u128 v) { return s.acc < v; });
  if (it != segs_.end() && it->acc == want) return it->start;
  const Segment& s = *(it - 1);
  const u128 r = rate(s);
  return s.start + static_cast<Time>((want - s.acc + r - 1) / r);
}

std::int64_t Oscillator::error_ppb(Time t) {
  extend_to(t);
  return segs_[segment_at(t)].ppb;
}

}  // namespace sanvp::nic
