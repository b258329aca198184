// Synthetic workload of the paper's section 4.1: uniform destinations, injection intervals
// uniform in [0, 2 * mean], optional bursts of uniform length 1..max_burst. Packets go into the
// host's packet queue (unlimited FIFO in host memory); the NIC prefetches from it.
#pragma once
#include <cstdint>
#include <deque>

#include "hw/base/params.hpp"
#include "hw/base/rng.hpp"
#include "hw/base/time.hpp"
#include "hw/clint/traffic_params.hpp"

namespace sanvp::clint {

// Lowest offered load: below it a host sends almost nothing in any practical run and the mean
// gap between packets no longer fits the picosecond clock.
inline constexpr double kMinLoad = 1e-6;

// load, bursty, max_burst, burst_same_dest, self_traffic: traffic.params.yaml (load >= kMinLoad).
struct TrafficConfig : TrafficParams {
  static TrafficConfig from(ParamValues& pv);
};

struct Packet;
// Appends a packet injected by hand (tests, traces) from `src` to `dst`, born at `born`: its id
// is the channel's next (`generated`, incremented), its sequence number the pair's next.
void inject_packet(std::deque<Packet>& queue, std::uint64_t& pair_seq, std::uint64_t& generated, int src, int dst,
                   Time born);

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
  // Appends every packet born before `until` to `queue`; returns how many.
  std::size_t generate_until(Time until, std::deque<Packet>& queue);
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
