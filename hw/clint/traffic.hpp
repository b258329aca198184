// Synthetic workload of the paper's section 4.1: uniform destinations, injection intervals
// uniform in [0, 2 * mean], optional bursts of uniform length 1..max_burst. Packets go into the
// host's packet queue (unlimited FIFO in host memory); the NIC prefetches from it.
#pragma once
#include <cstdint>
#include <deque>

#include "hw/base/params.hpp"
#include "hw/base/rng.hpp"
#include "hw/base/time.hpp"

namespace sanvp::clint {

// Lowest offered load: below it a host sends almost nothing in any practical run and the mean
// gap between packets no longer fits the picosecond clock.
inline constexpr double kMinLoad = 1e-6;

struct TrafficConfig {
  static inline const ParamRegistrar params{{
      {"clint", "load", ParamType::Real, "", "0.5", "offered load per host, fraction of link bandwidth (sanvp clint: --loads)"},
      {"clint", "bursty", ParamType::Bool, "", "false", "bursts of uniform length 1..max_burst (sanvp clint: --bursty)"},
      {"clint", "max_burst", ParamType::Int, "", "5", "longest burst (packets)"},
      {"clint", "burst_same_dest", ParamType::Bool, "", "true", "all packets of a burst go to one target (unstated in the paper)"},
      {"clint", "self_traffic", ParamType::Bool, "", "false", "a host may address itself (unstated in the paper)"},
  }};
  double load = 0.5;
  bool bursty = false;
  int max_burst = 5;
  bool burst_same_dest = true;
  bool self_traffic = false;
  static TrafficConfig from(ParamValues& pv);
};

struct Packet {
  std::uint64_t id = 0;    // unique per run: (source << 40) | serial
  int src = 0, dst = 0;
  std::uint64_t seq = 0;   // per (src, dst) pair, from 0: in-order delivery check
  Time born = 0;           // deposited into the packet queue
};

// One generator per host and channel. `packet_time` is the time the packet occupies the link,
// so load 1.0 means back-to-back packets.
class TrafficGen {
 public:
  TrafficGen(const TrafficConfig& cfg, int host, int hosts, Time packet_time, std::uint64_t seed, const char* channel);
  // Appends every packet born before `until` to `queue`.
  void generate_until(Time until, std::deque<Packet>& queue);
  Time next_birth() const { return next_; }
  std::uint64_t generated() const { return serial_; }

 private:
  int pick_dst();
  TrafficConfig cfg_;
  int host_, hosts_;
  double mean_gap_ps_;
  Rng rng_;
  Time next_ = 0;
  std::uint64_t serial_ = 0;
  std::vector<std::uint64_t> pair_seq_;
};

}  // namespace sanvp::clint
