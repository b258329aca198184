// Oscillator: a NIC's own crystal. Its tick count at simulated time t is exact integer arithmetic
// on a frequency that is off by a static error (ppm) and, optionally, a random walk (a new
// offset every `walk_step`, Gaussian steps of `walk_ppm`): the clocks of different NICs drift
// apart as the FBS and TDMA papers assume, reproducibly (per-NIC random stream).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/base/rng.hpp"
#include "hw/base/time.hpp"
#include "hw/nic/oscillator_params.hpp"

namespace sanvp::nic {

// OscillatorConfig {freq_mhz, ppm, walk_ppm, walk_step}: nominal frequency, static error, and
// the random walk (step deviation, 0 = off; time between steps): oscillator.params.yaml.

class Oscillator {
 public:

  Oscillator(const OscillatorConfig& cfg, Rng rng);

  // Whole ticks completed since time 0 (exact: floor of the integrated frequency).
  std::uint64_t ticks(Time t);
  // Earliest time at which ticks() reaches `n`.
  Time time_of_tick(std::uint64_t n);
  // Frequency error in force at `t`, in parts per billion (static + walk).
  std::int64_t error_ppb(Time t);
  std::uint64_t nominal_hz() const { return hz_; }

 private:
  using u128 = unsigned __int128;
  // Piecewise-constant frequency: segment i starts at start, with `acc` = integral of
  // hz*(1e9+ppb) over [0, start) in units of ps*Hz*1e9 (one tick = 1e21 of them).
  struct Segment { Time start; u128 acc; std::int64_t ppb; };
  static constexpr u128 kUnit = static_cast<u128>(1000000000000ull) * 1000000000ull;
  void extend_to(Time t);
  std::size_t segment_at(Time t) const;
  u128 rate(const Segment& s) const { return static_cast<u128>(hz_) * static_cast<u128>(1000000000ll + s.ppb); }
  double gaussian();

  std::uint64_t hz_;
  std::int64_t ppb0_;
  double walk_ppb_;
  Time step_;
  Rng rng_;
  std::vector<Segment> segs_;
};

}  // namespace sanvp::nic
