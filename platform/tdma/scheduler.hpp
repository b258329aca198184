// The TDMA scheduler (thesis 5.4, Appendix A): a pure function from a network (links and
// candidate routes per node pair), a stream list and a configuration to a schedule of one TDMA
// cycle and an admission result per stream. Deterministic, no global state: every node that runs
// it on the same demands gets the same schedule (the thesis's distributed scheduling).
//
//   cycle    lcm of the periods (an error above max_cycle).
//   order    every message of the cycle (instance k of stream i, released at k*p_i, due by
//            k*p_i + d_i) in order of release, then deadline (EDF among the messages released
//            together), then the tie-break: "list" = the stream list's order (clock sync first,
//            then the file: the thesis's stable sort of the gathered demands), "id" = stream id.
//   placing  contiguous first fit: the earliest s_i slots within [release, release + d_i) free
//            on every link of the route; the first-choice route first, the alternates only when
//            it has no such window.
//   reject   a message that fits no route rejects its stream: the stream's reservations are
//            released and it gets the reason (the instance, the window, each route's blocking
//            link and who holds it). Streams placed before keep their slots (non-optimizing,
//            as in the thesis).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/tdma/network.hpp"
#include "platform/tdma/stream.hpp"

namespace sanvp::tdma {

struct SchedulerConfig {
  std::int64_t max_cycle = 100000;  // tdma.max_cycle
  std::string tie_break = "list";   // tdma.tie_break: list | id
};

struct Reservation {
  std::int64_t stream = 0;          // stream id
  std::int64_t instance = 0;        // k: released at slot k * period
  std::int64_t start = 0;           // first slot, 0-based within the cycle
  std::int64_t slots = 0;
  int path = 0;                     // candidate route index: 0 = first choice
  std::vector<std::uint8_t> route;  // its route bytes
};

struct Admission {
  std::int64_t stream = 0;
  bool admitted = false;
  std::string reason;                 // rejected: why
  std::int64_t failed_instance = -1;  // rejected: the instance that found no window
  std::vector<std::int64_t> per_path; // admitted: instances on each candidate route
};

struct TdmaSchedule {
  std::int64_t cycle = 0;
  std::string tie_break;
  std::vector<Reservation> reservations;  // admitted streams only, by (start, stream)
  std::vector<Admission> admissions;      // one per stream, in stream-list order
  std::size_t admitted() const;
};

// lcm of the periods; UserError naming the stream whose period takes it above `max_cycle`.
std::int64_t tdma_cycle(const std::vector<Stream>& streams, std::int64_t max_cycle);

// Streams must have routes in `net` (tdma_network()). UserError for a bad configuration.
TdmaSchedule schedule_streams(const TdmaNetwork& net, const std::vector<Stream>& streams, const SchedulerConfig& cfg);

}  // namespace sanvp::tdma
