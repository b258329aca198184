#include "platform/tdma/schedule_report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "hw/base/time.hpp"

namespace sanvp::tdma {
namespace {

using Grid = std::vector<std::vector<std::int64_t>>;  // [link][slot] -> stream id, -1 free

Grid grid(const TdmaNetwork& net, const std::vector<Stream>& streams, const TdmaSchedule& s) {
  std::map<std::int64_t, const Stream*> by_id;
  for (const Stream& st : streams) by_id[st.id] = &st;
  Grid g(net.links.size());
  for (const auto& r : s.reservations) {
    const Stream& st = *by_id.at(r.stream);
    const Path& p = net.candidates(st.src, st.dst).at(static_cast<std::size_t>(r.path));
    for (int l : p.links) {
      auto& row = g[static_cast<std::size_t>(l)];
      if (row.empty()) row.assign(static_cast<std::size_t>(s.cycle), -1);
      for (std::int64_t u = r.start; u < r.start + r.slots; ++u) row[static_cast<std::size_t>(u)] = r.stream;
    }
  }
  return g;
}

std::string route_text(const std::vector<std::uint8_t>& r) { return format_route(RouteTable::View{r.data(), r.size()}); }

// "4 instances on route 0 [2 0], 2 on route 1 [3 0]"
std::string routes_used(const TdmaNetwork& net, const Stream& st, const Admission& a) {
  std::string out;
  const auto& paths = net.candidates(st.src, st.dst);
  for (std::size_t p = 0; p < a.per_path.size(); ++p) {
    if (a.per_path[p] == 0) continue;
    out += fmt::format("{}{} on route {} [{}]{}", out.empty() ? "" : ", ", a.per_path[p], p, route_text(paths[p].route),
                       p == 0 ? " (first choice)" : "");
  }
  return out;
}

}  // namespace

std::string slot_table(const TdmaNetwork& net, const std::vector<Stream>& streams, const TdmaSchedule& s, std::int64_t max_rows) {
  const Grid g = grid(net, streams, s);
  std::vector<std::size_t> cols;
  for (std::size_t l = 0; l < g.size(); ++l)
    if (!g[l].empty()) cols.push_back(l);
  std::string out = "slot";
  for (std::size_t l : cols) out += fmt::format("  {:>6}", net.links[l]);
  out += "\n";
  for (std::int64_t u = 0; u < std::min(s.cycle, max_rows); ++u) {
    out += fmt::format("{:>4}", u);
    for (std::size_t l : cols) {
      const std::int64_t h = g[l][static_cast<std::size_t>(u)];
      out += fmt::format("  {:>{}}", h < 0 ? std::string(".") : std::to_string(h), std::max<std::size_t>(6, net.links[l].size()));
    }
    out += "\n";
  }
  if (max_rows < s.cycle) out += fmt::format("... {} more slots not shown (every reservation is in --json)\n", s.cycle - max_rows);
  const std::size_t idle = net.links.size() - cols.size();
  if (idle > 0) out += fmt::format("({} link{} without reservations not shown)\n", idle, idle == 1 ? "" : "s");
  return out;
}

std::string admission_text(const ScheduleRun& r) {
  std::string out = fmt::format("{:>8}  {:>9}  {:>6}  {:>8}  {:>5}  result\n", "stream", "S->D", "period", "deadline", "slots");
  for (std::size_t i = 0; i < r.streams.size(); ++i) {
    const Stream& st = r.streams[i];
    const Admission& a = r.schedule.admissions[i];
    out += fmt::format("{:>8}  {:>9}  {:>6}  {:>8}  {:>5}  ", st.id, fmt::format("{}->{}", st.src, st.dst), st.period, st.deadline, st.slots);
    out += a.admitted ? fmt::format("admitted{}: {}\n", st.sync ? " (clock sync)" : "", routes_used(r.net, st, a))
                      : fmt::format("REJECTED{}: {}\n", st.sync ? " (clock sync)" : "", a.reason);
  }
  return out;
}

std::string summary_text(const ScheduleRun& r) {
  std::vector<std::int64_t> rejected;
  for (const auto& a : r.schedule.admissions)
    if (!a.admitted) rejected.push_back(a.stream);
  const auto capacity = static_cast<double>(r.net.links.size()) * static_cast<double>(r.schedule.cycle);
  std::string out = fmt::format("summary: {} of {} streams admitted, {} rejected{}; {} of {} link-slots reserved ({:.1f} %)\n",
                                r.schedule.admitted(), r.streams.size(), rejected.size(),
                                rejected.empty() ? "" : fmt::format(" ({})", fmt::join(rejected, ", ")), r.check.link_slots,
                                r.net.links.size() * static_cast<std::size_t>(r.schedule.cycle),
                                capacity > 0 ? 100.0 * static_cast<double>(r.check.link_slots) / capacity : 0.0);
  if (!rejected.empty()) out += "rejections are admission results, not errors: the exit status stays 0\n";
  return out;
}

std::string schedule_text(const ScheduleRun& r, std::int64_t max_rows) {
  const TdmaSchedule& s = r.schedule;
  std::size_t syncs = 0;
  for (const Stream& st : r.streams) syncs += st.sync;
  std::string out = fmt::format("TDMA schedule of {} on {}: {} streams ({} clock sync)\n", r.file.name.empty() ? r.file.file : r.file.name,
                                r.net.name, r.streams.size(), syncs);
  out += fmt::format("cycle: {} slots (lcm of the periods) x tdma.slot {} = {}\n", s.cycle, format_time(r.params.slot),
                     format_time(r.params.slot * static_cast<Time>(s.cycle)));
  out += fmt::format("routes: {} first choice, then up to {} alternate{} (at most {} hop{} longer)\n", r.net.routing, r.params.alternates,
                     r.params.alternates == 1 ? "" : "s", r.params.extra_hops, r.params.extra_hops == 1 ? "" : "s");
  out += fmt::format("order: release, then deadline (EDF), then {}; contiguous first fit\n\n",
                     s.tie_break == "id" ? "stream id" : "the stream list (clock sync first, then the file)");
  out += slot_table(r.net, r.streams, s, max_rows) + "\nadmission:\n" + admission_text(r) + "\ncheck:\n" + format_tdma_check(r.check) + summary_text(r);
  return out;
}

nlohmann::json schedule_json(const ScheduleRun& r) {
  nlohmann::json streams = nlohmann::json::array();
  for (std::size_t i = 0; i < r.streams.size(); ++i) {
    const Stream& st = r.streams[i];
    const Admission& a = r.schedule.admissions[i];
    nlohmann::json j{{"id", st.id}, {"src", st.src}, {"dst", st.dst}, {"period", st.period}, {"deadline", st.deadline},
                     {"slots", st.slots}, {"sync", st.sync}, {"admitted", a.admitted}};
    if (!a.admitted) j["reason"] = a.reason, j["failed_instance"] = a.failed_instance;
    j["reservations"] = nlohmann::json::array();
    for (const auto& x : r.schedule.reservations)
      if (x.stream == st.id)
        j["reservations"].push_back({{"instance", x.instance}, {"start", x.start}, {"slots", x.slots}, {"path", x.path}, {"route", route_text(x.route)}});
    streams.push_back(j);
  }
  return {{"cycle", r.schedule.cycle}, {"slot_ps", r.params.slot}, {"tie_break", r.schedule.tie_break}, {"routing", r.net.routing},
          {"alternates", r.params.alternates}, {"links", r.net.links}, {"streams", streams},
          {"admitted", r.schedule.admitted()}, {"rejected", r.streams.size() - r.schedule.admitted()}, {"check", tdma_check_json(r.check)}};
}

}  // namespace sanvp::tdma
