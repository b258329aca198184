#include "hw/clint/traffic.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::clint {

TrafficConfig TrafficConfig::from(ParamValues& pv) {
  TrafficConfig c;
  c.read_params(pv);
  return c;
}

TrafficGen::TrafficGen(const TrafficConfig& cfg, int host, int hosts, Time packet_time, std::uint64_t seed,
                       const char* channel)
    : cfg_(cfg), host_(host), hosts_(hosts),
      rng_(seed, fmt::format("clint.host{}.{}.gen", host, channel)),
      pair_seq_(static_cast<std::size_t>(hosts), 0) {
  if (hosts < 2 && !cfg.self_traffic) throw UserError("clint.hosts: need at least 2 hosts without self traffic");
  // Mean burst length (1 + max) / 2 packets per burst keeps the offered load independent of burstiness.
  const double per_event = cfg.bursty ? (1.0 + cfg.max_burst) / 2.0 : 1.0;
  mean_gap_ps_ = static_cast<double>(packet_time) * per_event / cfg.load;
  next_ = static_cast<Time>(rng_.uniform01() * 2.0 * mean_gap_ps_);
}

int TrafficGen::pick_dst() {
  if (cfg_.self_traffic) return static_cast<int>(rng_.below(static_cast<std::uint64_t>(hosts_)));
  int d = static_cast<int>(rng_.below(static_cast<std::uint64_t>(hosts_ - 1)));
  return d >= host_ ? d + 1 : d;
}

void inject_packet(std::deque<Packet>& queue, std::uint64_t& pair_seq, std::uint64_t& generated, int src, int dst,
                   Time born) {
  Packet p;
  p.src = src;
  p.dst = dst;
  p.born = born;
  p.id = (static_cast<std::uint64_t>(src) << 40) | generated++;
  p.seq = pair_seq++;
  queue.push_back(p);
}

std::size_t TrafficGen::generate_until(Time until, std::deque<Packet>& queue) {
  const std::size_t before = queue.size();
  while (next_ < until) {
    int n = cfg_.bursty ? 1 + static_cast<int>(rng_.below(static_cast<std::uint64_t>(cfg_.max_burst))) : 1;
    int dst = pick_dst();
    for (int k = 0; k < n; ++k) {
      if (k > 0 && !cfg_.burst_same_dest) dst = pick_dst();
      Packet p;
      p.id = (static_cast<std::uint64_t>(host_) << 40) | serial_++;
      p.src = host_;
      p.dst = dst;
      p.seq = pair_seq_[static_cast<std::size_t>(dst)]++;
      p.born = next_;
      queue.push_back(p);
    }
    next_ += static_cast<Time>(rng_.uniform01() * 2.0 * mean_gap_ps_);
  }
  return queue.size() - before;
}

}  // namespace sanvp::clint
