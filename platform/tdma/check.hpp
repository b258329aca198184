// Checks any TDMA schedule, independently of the scheduler (links are recomputed by walking each
// reservation's route bytes on the topology), so a test can feed it a bad one:
//   conflict-free  no directed link is held by two reservations in one slot;
//   deadlines      every reservation lies within [k*p, k*p + d) of its instance k, with s slots;
//   complete       every admitted stream has exactly one reservation per instance of the cycle,
//                  and the cycle is a multiple of its period; rejected streams hold nothing.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/tdma/scheduler.hpp"
#include "platform/tdma/stream.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::tdma {

struct CheckViolation {
  enum class Kind { BadReservation, LinkConflict, MissedDeadline, MissingInstance };
  Kind kind = Kind::BadReservation;
  std::int64_t stream = -1, instance = -1;   // the reservation (the later one of a conflict)
  std::int64_t other = -1, other_instance = -1;  // LinkConflict: the reservation it collides with
  std::int64_t slot = -1;                    // LinkConflict: first shared slot
  std::string link;                          // LinkConflict: the shared link
  std::string text;                          // the whole message
};

struct TdmaCheck {
  std::vector<CheckViolation> violations;
  std::int64_t link_slots = 0;               // (link, slot) pairs reserved
  std::size_t count(CheckViolation::Kind k) const;
  bool ok() const { return violations.empty(); }
};

TdmaCheck check_tdma_schedule(const Topology& topo, const std::vector<Stream>& streams, const TdmaSchedule& s);

// One line per violation (at most `limit`, then how many more) and a verdict line.
std::string format_tdma_check(const TdmaCheck& c, int limit = 20);
nlohmann::json tdma_check_json(const TdmaCheck& c);

}  // namespace sanvp::tdma
