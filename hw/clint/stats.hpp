// Per-channel counters and the latency figure of the paper: time from packet generation until
// the start of the transmission out of the send buffer that succeeded (the last attempt).
#pragma once
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "hw/base/time.hpp"

namespace sanvp::clint {

struct ChannelStats {
  std::uint64_t generated = 0;      // packets deposited in packet queues
  std::uint64_t transmissions = 0;  // request packets put on the wire (incl. retransmissions)
  std::uint64_t retransmissions = 0;
  std::uint64_t delivered = 0;      // handed to the target host (once per packet)
  std::uint64_t completed = 0;      // acknowledged to the initiator (send buffer freed)
  std::uint64_t duplicates = 0;     // received again after delivery (acknowledged, not delivered)
  std::uint64_t nacks = 0, timeouts = 0, crc_errors = 0;
  std::uint64_t collisions = 0;               // request packets dropped (unscheduled channels)
  std::uint64_t collisions_with_ack = 0;      // of those, dropped because of an ack packet
  std::uint64_t bulk_collisions = 0;          // two breqs for one output in a slot: must stay 0
  std::uint64_t matched = 0, slots = 0;       // scheduled channel: granted pairs, slots
  std::uint64_t acks_sent = 0, acks_received = 0;  // quick channel: qack/NACK never dropped
  // Latency of packets born after the warm-up.
  std::uint64_t lat_count = 0;
  double lat_sum_ps = 0;
  Time lat_max = 0;
  void add_latency(Time l) {
    ++lat_count;
    lat_sum_ps += static_cast<double>(l);
    lat_max = std::max(lat_max, l);
  }
  double mean_latency_us() const { return lat_count ? lat_sum_ps / static_cast<double>(lat_count) / 1e6 : 0.0; }
  nlohmann::json to_json() const {
    return {{"generated", generated}, {"transmissions", transmissions}, {"retransmissions", retransmissions},
            {"delivered", delivered}, {"completed", completed}, {"duplicates", duplicates}, {"nacks", nacks},
            {"timeouts", timeouts}, {"crc_errors", crc_errors}, {"collisions", collisions},
            {"collisions_with_ack", collisions_with_ack}, {"bulk_collisions", bulk_collisions},
            {"matched", matched}, {"slots", slots},
            {"acks_sent", acks_sent}, {"acks_received", acks_received}, {"latency_samples", lat_count},
            {"mean_latency_us", mean_latency_us()}, {"max_latency_us", static_cast<double>(lat_max) / 1e6}};
  }
};

}  // namespace sanvp::clint
