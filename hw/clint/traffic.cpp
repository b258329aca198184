#include "hw/clint/traffic.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::clint {

TrafficConfig TrafficConfig::from(ParamValues& pv) {
  TrafficConfig c;
  c.load = pv.real("", "clint", "load");
  c.bursty = pv.boolean("", "clint", "bursty");
  c.max_burst = static_cast<int>(pv.integer("", "clint", "max_burst"));
  c.burst_same_dest = pv.boolean("", "clint", "burst_same_dest");
  c.self_traffic = pv.boolean("", "clint", "self_traffic");
  if (!(c.load >= kMinLoad && c.load <= 1.0)) pv.fail("", "clint", "load", fmt::format("{} outside [{}, 1]", c.load, kMinLoad));
  if (c.max_burst < 1) throw UserError(fmt::format("clint.max_burst: {} must be >= 1", c.max_burst));
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

void TrafficGen::generate_until(Time until, std::deque<Packet>& queue) {
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
}

}  // namespace sanvp::clint
