// PacketStatistics: what a run reports about its test packets — the measurement window's offered
// and accepted traffic and source backlogs, latencies, counts — accumulated from packets the
// table releases during the run (PacketTable::release: delivered intact, record freed) and
// completed at the end from the records still kept. Each packet is counted once, by the same
// rules either way, so a run reports the same numbers whether or not it releases records.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/endpoint/packet.hpp"
#include "hw/base/time.hpp"

namespace sanvp {

// The measurement window of a run: what was created in it (offered) and delivered in it
// (accepted), per node and in total, and the source queues at its start and end.
struct Measurement {
  Time from = 0, to = 0;  // [from, to): to is sim.duration, or the stop of a run that ended before it
  int nodes = 0;          // test endpoints (hosts with NICs are not counted)
  Time cp = 0;            // character period of the endpoints' links: flit rates are per cp
  struct Count { std::uint64_t packets = 0, payload = 0, wire = 0; };
  Count offered, accepted;
  std::uint64_t backlog_from = 0, backlog_to = 0;  // packets created but not yet injected
  std::vector<Count> node_offered, node_accepted;
  std::vector<std::uint64_t> node_backlog_from, node_backlog_to;
  double margin = 0, tolerance = 0;  // sim.saturation_margin; the allowed shortfall in packets
  bool saturated = false;
  double seconds() const { return static_cast<double>(to - from) * 1e-12; }
  bool in(Time t) const { return t >= from && t < to; }
};

struct PacketCounts {
  std::vector<Time> lat, net_lat;  // created->tail and injected->tail of each delivered packet
  std::uint64_t delivered = 0, corrupt = 0, dup = 0, payload_bytes = 0;
  // Link faults (link_faults.hpp): packets touched, of which found bad at a sink (expected, not a
  // scoreboard error), ended in the network (consumed by a switch, lost on a cut), or delivered intact.
  std::uint64_t faulted = 0, faulted_corrupt = 0, dropped = 0, faulted_delivered = 0;
  std::uint64_t errors() const { return corrupt - faulted_corrupt; }  // bad packets no fault explains
};

class PacketStatistics {
 public:
  // Window [from, min(duration, stop)); `nodes` node slots (ids of the network's nodes), of which
  // `endpoints` are test endpoints; `cp` of their links; sim.saturation_margin.
  PacketStatistics(Time from, Time duration, std::size_t nodes, int endpoints, Time cp, double margin);
  // A packet released at `now` (its tail arrived before now).
  void add_released(const PacketRecord& r, Time now);
  // The run stopped at `stopped`: counts the records still kept and judges saturation.
  void finish(const PacketTable& table, Time stopped);

  const Measurement& window() const { return m_; }
  const PacketCounts& counts() const { return c_; }
  Time last_tail() const { return last_tail_; }  // latest tail arrival of any packet (kNever: none)

 private:
  void add(const PacketRecord& r, Time to);

  Time duration_;
  Measurement m_;
  PacketCounts c_;
  Time last_tail_ = kNever;
};

}  // namespace sanvp
