#include "platform/tdma/rejection.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace sanvp::tdma {
namespace {

struct LinkWindow {
  std::int64_t free = 0, longest = 0;  // free slots in the window, longest run of them
};

LinkWindow scan(const Occupancy& occ, int link, std::int64_t from, std::int64_t to) {
  LinkWindow w;
  std::int64_t run = 0;
  for (std::int64_t u = from; u < to; ++u) {
    run = occ.at(link, u) == Occupancy::kFree ? run + 1 : 0;
    w.free += run > 0;
    w.longest = std::max(w.longest, run);
  }
  return w;
}

// Longest run of slots in [from, to) free on every link of `p`.
std::int64_t common_run(const Occupancy& occ, const Path& p, std::int64_t from, std::int64_t to) {
  std::int64_t run = 0, best = 0;
  for (std::int64_t u = from; u < to; ++u) {
    const bool free = std::all_of(p.links.begin(), p.links.end(), [&](int l) { return occ.at(l, u) == Occupancy::kFree; });
    run = free ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// Stream ids holding `link` in [from, to), in slot order, each once.
std::vector<std::int64_t> holders(const Occupancy& occ, const std::vector<Stream>& streams, int link, std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> ids;
  for (std::int64_t u = from; u < to; ++u) {
    const int h = occ.at(link, u);
    if (h == Occupancy::kFree) continue;
    const std::int64_t id = streams[static_cast<std::size_t>(h)].id;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  return ids;
}

std::string route_blocker(const Occupancy& occ, const TdmaNetwork& net, const std::vector<Stream>& streams, const Path& p,
                          std::int64_t from, std::int64_t to, std::int64_t len) {
  int worst = p.links.front();
  LinkWindow ww = scan(occ, worst, from, to);
  for (int l : p.links) {
    const LinkWindow w = scan(occ, l, from, to);
    if (w.longest < ww.longest || (w.longest == ww.longest && w.free < ww.free)) worst = l, ww = w;
  }
  if (ww.longest < len) {
    const auto ids = holders(occ, streams, worst, from, to);
    return fmt::format("link {} has no {} contiguous free slot{} (longest free run {}; held by stream{} {})",
                       net.links[static_cast<std::size_t>(worst)], len, len == 1 ? "" : "s", ww.longest, ids.size() == 1 ? "" : "s",
                       fmt::join(ids, ", "));
  }
  return fmt::format("each of its links has a free run of {} but they do not line up (longest run free on all of them: {})", len,
                     common_run(occ, p, from, to));
}

}  // namespace

std::string rejection_reason(const Occupancy& occ, const TdmaNetwork& net, const std::vector<Stream>& streams, std::size_t stream,
                             std::int64_t instance) {
  const Stream& s = streams[stream];
  const std::int64_t from = instance * s.period, to = from + s.deadline;
  const auto& paths = net.candidates(s.src, s.dst);
  std::string r = fmt::format("instance {} of {} (released at slot {}, due by slot {}) found no {} contiguous free slot{} within [{}, {}) on {}",
                              instance, occ.cycle() / s.period, from, to, s.slots, s.slots == 1 ? "" : "s", from, to,
                              paths.size() == 1 ? "its only route" : fmt::format("any of its {} routes", paths.size()));
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const RouteTable::View v{paths[i].route.data(), paths[i].route.size()};
    r += fmt::format("{} route {} [{}]{}: {}", i == 0 ? ":" : ";", i, format_route(v), i == 0 ? " (first choice)" : "",
                     route_blocker(occ, net, streams, paths[i], from, to, s.slots));
  }
  return r;
}

}  // namespace sanvp::tdma
