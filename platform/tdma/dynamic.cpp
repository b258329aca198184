#include "platform/tdma/dynamic.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::tdma {

std::uint64_t schedule_hash(const TdmaSchedule& s) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::int64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF)) * 1099511628211ull;
  };
  mix(s.cycle);
  for (const Reservation& r : s.reservations) {
    for (const std::int64_t v : {r.stream, r.instance, r.start, r.slots, static_cast<std::int64_t>(r.path)}) mix(v);
    for (const std::uint8_t b : r.route) mix(b);
  }
  return h;
}

namespace {

std::string describe(const Stream& s) {
  return fmt::format("stream {} (n{}->n{}, period {}, deadline {}, {} slot{})", s.id, s.src, s.dst, s.period, s.deadline, s.slots,
                     s.slots == 1 ? "" : "s");
}

// Accepted only when every stream of the new set is admitted: a new stream the admission test
// rejects, or one that would push an admitted stream out, leaves the running schedule as it is.
void decide(const DynamicPlan& d, const std::vector<Stream>& next, const std::int64_t added, ChangeDecision& c, ScheduleVersion& v) {
  v.streams = next;
  v.schedule = schedule_streams(d.net, next, d.sched);
  v.hash = schedule_hash(v.schedule);
  for (const Admission& a : v.schedule.admissions) {
    if (a.admitted) continue;
    c.reason = a.stream == added ? a.reason : fmt::format("it would displace the admitted stream {}: {}", a.stream, a.reason);
    return;
  }
  c.accepted = true;
}

}  // namespace

void plan_changes(const std::vector<Stream>& initial, const std::vector<StreamChange>& changes, const std::vector<int>& nics,
                  std::vector<std::uint32_t> const& nodes, DynamicPlan& d) {
  // The running demand set: the streams version 0 (d.versions[0], the caller's) admitted.
  std::vector<Stream> cur;
  std::vector<std::int64_t> ever;
  for (const Stream& s : initial) {
    ever.push_back(s.id);
    for (const Admission& a : d.versions.at(0).schedule.admissions)
      if (a.stream == s.id && a.admitted) cur.push_back(s);
  }
  auto index_of = [&](int node) {
    return static_cast<std::size_t>(std::find(nodes.begin(), nodes.end(), static_cast<std::uint32_t>(node)) - nodes.begin());
  };
  for (std::size_t k = 0; k < changes.size(); ++k) {
    const StreamChange& ch = changes[k];
    ChangeDecision c;
    std::vector<Stream> next = cur;
    std::int64_t added = -1;
    if (ch.add) {
      if (std::find(ever.begin(), ever.end(), ch.add->id) != ever.end())
        throw UserError(fmt::format("{}: changes[{}].add.id: stream id {} was already used (ids are never reused)", ch.where, k, ch.add->id));
      if (std::find(nics.begin(), nics.end(), ch.add->src) == nics.end() || std::find(nics.begin(), nics.end(), ch.add->dst) == nics.end() ||
          ch.add->src == ch.add->dst)
        throw UserError(fmt::format("{}: changes[{}].add: stream {} needs two different nodes of the network", ch.where, k, ch.add->id));
      ever.push_back(ch.add->id);
      next.push_back(*ch.add);
      added = ch.add->id;
      c.what = "add " + describe(*ch.add);
      c.requester = index_of(ch.add->src);
    } else {
      const auto it = std::find_if(next.begin(), next.end(), [&](const Stream& s) { return s.id == ch.remove; });
      if (it == next.end() || it->sync)
        throw UserError(fmt::format("{}: changes[{}].remove: {} is not an admitted stream of the running set at that point{}", ch.where, k, ch.remove,
                                    it != next.end() ? " (a clock-sync stream)" : ""));
      c.what = "remove " + describe(*it);
      c.requester = index_of(it->src);
      next.erase(it);
    }
    ScheduleVersion v;
    v.change = static_cast<int>(k);
    decide(d, next, added, c, v);
    if (c.accepted) {
      c.version = static_cast<int>(d.versions.size());
      d.versions.push_back(v);
      cur = next;
    }
    d.decisions.push_back(c);
  }
}

}  // namespace sanvp::tdma
