#include "platform/tdma/check.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

#include "hw/base/error.hpp"
#include "platform/tdma/network.hpp"

namespace sanvp::tdma {
namespace {

using Kind = CheckViolation::Kind;

CheckViolation violation(Kind k, const Reservation& r, std::string text) {
  CheckViolation v;
  v.kind = k;
  v.stream = r.stream;
  v.instance = r.instance;
  v.text = std::move(text);
  return v;
}

// The window and length of one reservation; false when it cannot be placed in the cycle at all.
bool check_window(const Stream& st, const Reservation& r, std::int64_t cycle, std::vector<CheckViolation>& out) {
  const std::string who = fmt::format("stream {} instance {}", r.stream, r.instance);
  if (r.instance < 0 || r.instance >= cycle / st.period) {
    out.push_back(violation(Kind::BadReservation, r, fmt::format("{}: the cycle of {} slots has instances 0..{} of period {}", who, cycle,
                                                                 cycle / st.period - 1, st.period)));
    return false;
  }
  if (r.start < 0 || r.slots < 1 || r.start + r.slots > cycle) {
    out.push_back(violation(Kind::BadReservation, r, fmt::format("{}: slots [{}, {}) are not within the cycle [0, {})", who, r.start,
                                                                 r.start + r.slots, cycle)));
    return false;
  }
  if (r.slots != st.slots)
    out.push_back(violation(Kind::BadReservation, r, fmt::format("{}: reserves {} slots, the stream needs {}", who, r.slots, st.slots)));
  const std::int64_t release = r.instance * st.period, due = release + st.deadline;
  if (r.start < release)
    out.push_back(violation(Kind::MissedDeadline, r, fmt::format("{}: starts at slot {}, before its release at slot {}", who, r.start, release)));
  if (r.start + r.slots > due)
    out.push_back(violation(Kind::MissedDeadline, r, fmt::format("{}: ends at slot {}, after its deadline at slot {} (released at {}, d = {})",
                                                                 who, r.start + r.slots, due, release, st.deadline)));
  return true;
}

// Holders of every (link, slot); a second holder is a conflict.
class ConflictScan {
 public:
  ConflictScan(const TdmaSchedule& s, std::vector<CheckViolation>& out) : s_(s), out_(out) {}

  void add(std::size_t i, const std::vector<std::string>& links, std::int64_t& link_slots) {
    const Reservation& r = s_.reservations[i];
    for (const auto& l : links) {
      auto& row = occ_[l];
      if (row.empty()) row.assign(static_cast<std::size_t>(s_.cycle), -1);
      for (std::int64_t u = r.start; u < r.start + r.slots; ++u) {
        long& h = row[static_cast<std::size_t>(u)];
        if (h < 0) {
          h = static_cast<long>(i);
          ++link_slots;
        } else {
          conflict(static_cast<std::size_t>(h), i, l, u);
        }
      }
    }
  }

  // Writes the messages once every slot is counted.
  void finish() {
    for (const auto& [key, idx] : seen_) {
      CheckViolation& v = out_[idx];
      const int more = more_.count(idx) ? more_[idx] : 0;
      v.text = fmt::format("link {} at slot {}: stream {} instance {} and stream {} instance {}{}", v.link, v.slot, v.other,
                           v.other_instance, v.stream, v.instance, more ? fmt::format(" (and {} more slots)", more) : "");
    }
  }

 private:
  // One violation per (pair of reservations, link): its first shared slot and how many more.
  void conflict(std::size_t a, std::size_t b, const std::string& link, std::int64_t slot) {
    const auto [it, fresh] = seen_.emplace(std::make_tuple(a, b, link), out_.size());
    if (!fresh) {
      ++more_[it->second];
      return;
    }
    const Reservation& ra = s_.reservations[a];
    CheckViolation v = violation(Kind::LinkConflict, s_.reservations[b], {});
    v.other = ra.stream;
    v.other_instance = ra.instance;
    v.slot = slot;
    v.link = link;
    out_.push_back(v);
  }

  const TdmaSchedule& s_;
  std::vector<CheckViolation>& out_;
  std::map<std::string, std::vector<long>> occ_;
  std::map<std::tuple<std::size_t, std::size_t, std::string>, std::size_t> seen_;
  std::map<std::size_t, int> more_;
};

// Exactly one reservation per instance of every admitted stream, none for the others.
void check_complete(const std::vector<Stream>& streams, const TdmaSchedule& s, std::vector<CheckViolation>& out) {
  std::map<std::int64_t, bool> admitted;
  for (const auto& a : s.admissions) admitted[a.stream] = a.admitted;
  std::map<std::pair<std::int64_t, std::int64_t>, int> count;
  for (const auto& r : s.reservations) ++count[{r.stream, r.instance}];
  for (const Stream& st : streams) {
    const auto a = admitted.find(st.id);
    Reservation at{st.id, -1, 0, 0, 0, {}};
    if (a == admitted.end()) { out.push_back(violation(Kind::BadReservation, at, fmt::format("stream {}: no admission result", st.id))); continue; }
    if (!a->second) continue;
    if (s.cycle % st.period != 0)
      out.push_back(violation(Kind::MissingInstance, at, fmt::format("stream {}: the cycle of {} slots is not a multiple of its period {}", st.id, s.cycle, st.period)));
    for (std::int64_t k = 0; k < s.cycle / st.period; ++k) {
      const int n = count.count({st.id, k}) ? count[{st.id, k}] : 0;
      at.instance = k;
      if (n == 0) out.push_back(violation(Kind::MissingInstance, at, fmt::format("stream {} instance {} (released at slot {}) has no reservation", st.id, k, k * st.period)));
      if (n > 1) out.push_back(violation(Kind::BadReservation, at, fmt::format("stream {} instance {} has {} reservations", st.id, k, n)));
    }
  }
}

}  // namespace

std::size_t TdmaCheck::count(CheckViolation::Kind k) const {
  return static_cast<std::size_t>(std::count_if(violations.begin(), violations.end(), [k](const CheckViolation& v) { return v.kind == k; }));
}

TdmaCheck check_tdma_schedule(const Topology& topo, const std::vector<Stream>& streams, const TdmaSchedule& s) {
  TdmaCheck c;
  if (s.cycle < 1) throw UserError(fmt::format("tdma check: the cycle is {} slots", s.cycle));
  std::map<std::int64_t, const Stream*> by_id;
  for (const Stream& st : streams) by_id[st.id] = &st;
  std::map<std::int64_t, bool> admitted;
  for (const auto& a : s.admissions) admitted[a.stream] = a.admitted;
  const auto pm = topo.port_map();
  ConflictScan scan(s, c.violations);
  for (std::size_t i = 0; i < s.reservations.size(); ++i) {
    const Reservation& r = s.reservations[i];
    const auto st = by_id.find(r.stream);
    if (st == by_id.end()) { c.violations.push_back(violation(Kind::BadReservation, r, fmt::format("stream {}: not in the stream list", r.stream))); continue; }
    if (admitted.count(r.stream) && !admitted[r.stream])
      c.violations.push_back(violation(Kind::BadReservation, r, fmt::format("stream {} instance {}: reserved, but the stream was rejected", r.stream, r.instance)));
    if (!check_window(*st->second, r, s.cycle, c.violations)) continue;
    try {
      scan.add(i, route_link_names(topo, pm, st->second->src, st->second->dst, r.route), c.link_slots);
    } catch (const UserError& e) {
      c.violations.push_back(violation(Kind::BadReservation, r, fmt::format("stream {} instance {}: {}", r.stream, r.instance, e.what())));
    }
  }
  scan.finish();
  check_complete(streams, s, c.violations);
  return c;
}

std::string format_tdma_check(const TdmaCheck& c, int limit) {
  std::string out;
  const std::size_t shown = std::min(static_cast<std::size_t>(std::max(limit, 0)), c.violations.size());
  for (std::size_t i = 0; i < shown; ++i) out += "  " + c.violations[i].text + "\n";
  if (shown < c.violations.size()) out += fmt::format("  ... and {} more\n", c.violations.size() - shown);
  const std::size_t conflicts = c.count(Kind::LinkConflict), late = c.count(Kind::MissedDeadline);
  const std::size_t bad = c.violations.size() - conflicts - late;
  out += fmt::format("conflict-free: {}; deadlines: {}; complete: {}\n", conflicts ? fmt::format("no ({} conflicts)", conflicts) : "yes",
                     late ? fmt::format("no ({} missed)", late) : "all met", bad ? fmt::format("no ({} problems)", bad) : "yes");
  out += c.ok() ? "verdict: valid TDMA schedule\n" : "verdict: NOT a valid TDMA schedule\n";
  return out;
}

nlohmann::json tdma_check_json(const TdmaCheck& c) {
  static const char* kinds[] = {"bad_reservation", "link_conflict", "missed_deadline", "missing_instance"};
  nlohmann::json v = nlohmann::json::array();
  for (const auto& x : c.violations) v.push_back({{"kind", kinds[static_cast<int>(x.kind)]}, {"stream", x.stream}, {"text", x.text}});
  return {{"ok", c.ok()}, {"link_slots", c.link_slots}, {"conflicts", c.count(Kind::LinkConflict)},
          {"missed_deadlines", c.count(Kind::MissedDeadline)}, {"violations", v}};
}

}  // namespace sanvp::tdma
