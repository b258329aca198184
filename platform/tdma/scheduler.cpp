#include "platform/tdma/scheduler.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <tuple>

#include "hw/base/error.hpp"
#include "platform/tdma/occupancy.hpp"
#include "platform/tdma/rejection.hpp"

namespace sanvp::tdma {
namespace {

struct Job {
  std::int64_t release, due, rank;
  std::size_t stream;
  std::int64_t k;
};

// Every message of the cycle in scheduling order (header comment of scheduler.hpp).
std::vector<Job> jobs_in_order(const std::vector<Stream>& streams, std::int64_t cycle, const std::string& tie_break) {
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const Stream& s = streams[i];
    const std::int64_t rank = tie_break == "id" ? s.id : static_cast<std::int64_t>(i);
    for (std::int64_t k = 0; k < cycle / s.period; ++k) jobs.push_back(Job{k * s.period, k * s.period + s.deadline, rank, i, k});
  }
  std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return std::tie(a.release, a.due, a.rank, a.k) < std::tie(b.release, b.due, b.rank, b.k);
  });
  return jobs;
}

// The earliest start t in [from, due - len] with [t, t + len) free on every link of `p`, or -1.
std::int64_t first_fit(const Occupancy& occ, const Path& p, std::int64_t from, std::int64_t due, std::int64_t len) {
  for (std::int64_t t = from; t + len <= due;) {
    std::int64_t busy = -1;  // the last busy slot in [t, t + len) on any link: the next start to try is after it
    for (int l : p.links)
      for (std::int64_t u = t + len - 1; u > busy && u >= t; --u)
        if (occ.at(l, u) != Occupancy::kFree) busy = u;
    if (busy < 0) return t;
    t = busy + 1;
  }
  return -1;
}

class Builder {
 public:
  Builder(const TdmaNetwork& net, const std::vector<Stream>& streams, std::int64_t cycle)
      : net_(net), streams_(streams), occ_(net.links.size(), cycle), placed_(streams.size()), adm_(streams.size()) {
    for (std::size_t i = 0; i < streams.size(); ++i) {
      adm_[i].stream = streams[i].id;
      adm_[i].admitted = true;
      adm_[i].per_path.assign(net.candidates(streams[i].src, streams[i].dst).size(), 0);
    }
  }

  void place(const Job& j) {
    if (!adm_[j.stream].admitted) return;  // rejected by an earlier instance
    const Stream& s = streams_[j.stream];
    const auto& paths = net_.candidates(s.src, s.dst);
    for (std::size_t p = 0; p < paths.size(); ++p) {
      const std::int64_t t = first_fit(occ_, paths[p], j.release, j.due, s.slots);
      if (t < 0) continue;
      for (int l : paths[p].links)
        for (std::int64_t u = t; u < t + s.slots; ++u) occ_.set(l, u, static_cast<int>(j.stream));
      placed_[j.stream].push_back(Reservation{s.id, j.k, t, s.slots, static_cast<int>(p), paths[p].route});
      ++adm_[j.stream].per_path[p];
      return;
    }
    reject(j);
  }

  TdmaSchedule finish(const std::string& tie_break) {
    TdmaSchedule out;
    out.cycle = occ_.cycle();
    out.tie_break = tie_break;
    for (auto& v : placed_) out.reservations.insert(out.reservations.end(), v.begin(), v.end());
    std::sort(out.reservations.begin(), out.reservations.end(),
              [](const Reservation& a, const Reservation& b) { return std::tie(a.start, a.stream) < std::tie(b.start, b.stream); });
    out.admissions = std::move(adm_);
    return out;
  }

 private:
  // The reason is taken before the stream's own slots are released: they are part of why.
  void reject(const Job& j) {
    const Stream& s = streams_[j.stream];
    Admission& a = adm_[j.stream];
    a.admitted = false;
    a.failed_instance = j.k;
    a.reason = rejection_reason(occ_, net_, streams_, j.stream, j.k);
    std::fill(a.per_path.begin(), a.per_path.end(), 0);
    const auto& paths = net_.candidates(s.src, s.dst);
    for (const Reservation& r : placed_[j.stream])
      for (int l : paths[static_cast<std::size_t>(r.path)].links)
        for (std::int64_t u = r.start; u < r.start + r.slots; ++u) occ_.set(l, u, Occupancy::kFree);
    placed_[j.stream].clear();
  }

  const TdmaNetwork& net_;
  const std::vector<Stream>& streams_;
  Occupancy occ_;
  std::vector<std::vector<Reservation>> placed_;
  std::vector<Admission> adm_;
};

}  // namespace

std::size_t TdmaSchedule::admitted() const {
  return static_cast<std::size_t>(std::count_if(admissions.begin(), admissions.end(), [](const Admission& a) { return a.admitted; }));
}

std::int64_t tdma_cycle(const std::vector<Stream>& streams, std::int64_t max_cycle) {
  std::int64_t cycle = 1;
  for (const Stream& s : streams) {
    const std::int64_t g = std::gcd(cycle, s.period);
    // cycle / g * period, refused before it can exceed max_cycle (no overflow: both <= max_cycle).
    if (cycle / g > max_cycle / s.period)
      throw UserError(fmt::format("{}: stream {}: period {} makes the TDMA cycle (lcm of the periods) {} x {} / {} slots, above "
                                  "tdma.max_cycle = {}",
                                  s.where, s.id, s.period, cycle, s.period, g, max_cycle));
    cycle = cycle / g * s.period;
  }
  return cycle;
}

TdmaSchedule schedule_streams(const TdmaNetwork& net, const std::vector<Stream>& streams, const SchedulerConfig& cfg) {
  if (cfg.tie_break != "list" && cfg.tie_break != "id") throw UserError(fmt::format("tdma.tie_break: unknown '{}' (list, id)", cfg.tie_break));
  const std::int64_t cycle = tdma_cycle(streams, cfg.max_cycle);
  Builder b(net, streams, cycle);
  for (const Job& j : jobs_in_order(streams, cycle, cfg.tie_break)) b.place(j);
  return b.finish(cfg.tie_break);
}

}  // namespace sanvp::tdma
