#include "platform/sim/packet_stats.hpp"

#include <algorithm>
#include <cmath>

namespace sanvp {

namespace {

// A packet waits in its source queue from its creation until its first flit leaves.
bool queued_at(const PacketRecord& r, Time t) { return r.created <= t && (r.injected == kNever || r.injected > t); }

// The saturation rule (run.params.yaml, sim.saturation_margin): with n packets created in the
// window, 3*sqrt(n) is three standard deviations of that Poisson count, above the boundary effect
// (packets in flight at the window's ends) of a network that keeps up.
void judge_saturation(Measurement& m) {
  const double n = static_cast<double>(m.offered.packets);
  m.tolerance = std::max(m.margin * n, 3.0 * std::sqrt(n));
  const double shortfall = n - static_cast<double>(m.accepted.packets);
  const double growth = static_cast<double>(m.backlog_to) - static_cast<double>(m.backlog_from);
  m.saturated = n > 0 && (shortfall > m.tolerance || growth > m.tolerance);
}

}  // namespace

PacketStatistics::PacketStatistics(Time from, Time duration, std::size_t nodes, int endpoints, Time cp, double margin)
    : duration_(duration) {
  m_.from = from;
  m_.margin = margin;
  m_.nodes = endpoints;
  m_.cp = cp;
  m_.node_offered.assign(nodes, {});
  m_.node_accepted.assign(nodes, {});
  m_.node_backlog_from.assign(nodes, 0);
  m_.node_backlog_to.assign(nodes, 0);
}

// Every time of a packet released at `now` is before now, and the window's end is
// max(from, min(duration, stop)) with stop >= now: if duration has passed it is known; if not,
// it is at least now, later than every time of this packet (kNever stands for it).
void PacketStatistics::add_released(const PacketRecord& r, Time now) {
  add(r, duration_ <= now ? std::max(m_.from, duration_) : kNever);
}

void PacketStatistics::finish(const PacketTable& table, Time stopped) {
  m_.to = std::max(m_.from, std::min(duration_, stopped));
  table.for_each_kept([&](std::uint32_t, const PacketRecord& r) { add(r, m_.to); });
  judge_saturation(m_);
}

// One packet into the window's measurement (window end `to`) and the run's counts; latencies
// count the packets created in the window only.
void PacketStatistics::add(const PacketRecord& r, Time to) {
  auto in = [&](Time t) { return t >= m_.from && t < to; };
  auto count = [&r](Measurement::Count& c) { ++c.packets; c.payload += r.payload; c.wire += r.wire_len(); };
  if (in(r.created)) { count(m_.offered); count(m_.node_offered.at(r.src)); }
  if (r.deliveries >= 1 && in(r.tail_arrival)) { count(m_.accepted); count(m_.node_accepted.at(r.dst)); }
  if (queued_at(r, m_.from)) { ++m_.backlog_from; ++m_.node_backlog_from.at(r.src); }
  if (queued_at(r, to)) { ++m_.backlog_to; ++m_.node_backlog_to.at(r.src); }
  if (r.tail_arrival != kNever) last_tail_ = last_tail_ == kNever ? r.tail_arrival : std::max(last_tail_, r.tail_arrival);
  if (r.corrupt) ++c_.corrupt;
  if (r.faulted) {
    ++c_.faulted;
    if (r.corrupt) ++c_.faulted_corrupt;
    if (r.deliveries >= 1) ++c_.faulted_delivered;
  }
  if (r.dropped) ++c_.dropped;
  if (r.deliveries > 1) ++c_.dup;
  if (r.deliveries >= 1) {
    ++c_.delivered;
    c_.payload_bytes += r.payload;
    if (in(r.created)) {
      c_.lat.push_back(r.tail_arrival - r.created);
      c_.net_lat.push_back(r.tail_arrival - r.injected);
    }
  }
}

}  // namespace sanvp
