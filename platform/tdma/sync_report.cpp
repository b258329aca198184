#include "platform/tdma/sync_report.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace sanvp::tdma {

namespace {

// Worst and mean of |offset| over a set of samples.
struct Stat {
  double worst = 0, sum = 0;
  std::size_t n = 0;
  void add(double x) { worst = std::max(worst, std::fabs(x)), sum += std::fabs(x), ++n; }
  double mean() const { return n ? sum / static_cast<double>(n) : 0; }
  nlohmann::json json() const {
    if (!n) return nlohmann::json{{"count", 0}};
    return {{"count", n}, {"max_ps", std::llround(worst)}, {"mean_ps", std::llround(mean())}};
  }
  std::string text() const { return n ? fmt::format("{:9.1f} {:9.1f}", worst / 1000, mean() / 1000) : fmt::format("{:>9} {:>9}", "-", "-"); }
};

struct Grouped {
  std::map<std::uint32_t, Stat> after, before;  // per sync period k
  std::map<std::uint32_t, Stat> node_after, node_before;  // per slave, synchronized samples only
  Stat after_all, before_synced, unsynced;  // unsynced: before the first sync, or running free
  std::map<std::uint32_t, std::vector<std::pair<double, double>>> free;  // per slave: (global time, offset) running free
  bool within = true;
};

bool applied(const SyncPlan& p, std::int64_t k) { return k >= 0 && (p.apply < 0 || k < p.apply); }

// A sample "before" at slot n of period k shows the clock as the sync of period k - 1 left it;
// "after" (slot n + 1) as the sync of period k set it.
Grouped group(const SyncPlan& p, const std::vector<SyncSample>& v) {
  Grouped g;
  for (const SyncSample& s : v) {
    const std::uint32_t k = (s.slot - (s.after ? 1 : 0)) / p.period;
    const SlaveSync& sl = *std::find_if(p.slaves.begin(), p.slaves.end(), [&](const SlaveSync& x) { return x.node == s.node; });
    const bool synced = s.after || applied(p, static_cast<std::int64_t>(k) - 1);
    if (synced && std::fabs(s.offset_ps) > sl.bound_ps) g.within = false;
    if (s.after) {
      g.after[k].add(s.offset_ps), g.after_all.add(s.offset_ps), g.node_after[s.node].add(s.offset_ps);
      continue;
    }
    g.before[k].add(s.offset_ps);
    (synced ? g.before_synced : g.unsynced).add(s.offset_ps);
    if (synced) g.node_before[s.node].add(s.offset_ps);
    // Running free since the last applied sync (or since boot with none): the drift-rate line.
    if (p.apply >= 0 && k >= static_cast<std::uint32_t>(p.apply)) g.free[s.node].emplace_back(s.at_ps, s.offset_ps);
  }
  return g;
}

double ls_slope(const std::vector<std::pair<double, double>>& xy) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : xy) n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

nlohmann::json slaves_json(const SyncPlan& p, const Grouped& g, std::string& lines) {
  nlohmann::json a = nlohmann::json::array();
  for (const SlaveSync& s : p.slaves) {
    const double ps = p.ppm[p.index_of(s.node)], pm = p.ppm[p.index_of(p.master)];
    nlohmann::json j{{"node", s.node}, {"slot", s.pos}, {"switches", s.route.size()}, {"ppm", ps}, {"rel_ppm", s.rel_ppm},
                     {"tx_ps", std::llround(s.tx_ps)}, {"tx_ticks", s.tx_ticks}, {"resolution_ps", std::llround(s.resolution_ps)},
                     {"tx_error_ps", std::llround(s.tx_error_ps)}, {"drift_ps", std::llround(s.drift_ps)}, {"bound_ps", std::llround(s.bound_ps)}};
    for (const auto& [key, m] : {std::pair{"after_sync", &g.node_after}, {"before_next_sync", &g.node_before}}) {
      const auto at = m->find(s.node);
      j[key] = at == m->end() ? Stat{}.json() : at->second.json();
    }
    const auto it = g.free.find(s.node);
    if (it != g.free.end() && it->second.size() >= 2) {
      const double slope = ls_slope(it->second) * 1e6, expect = free_slope(ps, pm) * 1e6;
      j["free_slope_ppm"] = slope;
      j["expected_slope_ppm"] = expect;
      lines += fmt::format("  n{}: free-running offset slope {:+.3f} ppm, expected from the oscillators 1 - f_master / f_slave = {:+.3f} ppm\n",
                           s.node, slope, expect);
    }
    a.push_back(j);
  }
  return a;
}

std::string period_table(const SyncPlan& p, const Grouped& g, nlohmann::json& rows) {
  std::string t = fmt::format("{:>6}  {:>9} {:>9}  {:>9} {:>9}   (|slave - master|, ns: worst, mean over the slaves)\n", "period",
                              "after", "mean", "before", "mean");
  for (std::uint32_t k = 0; k < p.periods; ++k) {
    const Stat a = g.after.count(k) ? g.after.at(k) : Stat{}, b = g.before.count(k) ? g.before.at(k) : Stat{};
    t += fmt::format("{:>6}  {}  {}{}\n", k, a.text(), b.text(), applied(p, static_cast<std::int64_t>(k) - 1) ? "" : "   (before: no sync yet / running free)");
    rows.push_back({{"period", k}, {"synced", applied(p, k)}, {"after_sync", a.json()}, {"before_sync", b.json()}});
  }
  return t;
}

}  // namespace

nlohmann::json sync_plan_json(const SyncPlan& p) {
  nlohmann::json clocks = nlohmann::json::array();
  for (std::size_t i = 0; i < p.nodes.size(); ++i) clocks.push_back({{"node", p.nodes[i]}, {"ppm", p.ppm[i]}});
  return {{"network", p.network}, {"master", p.master}, {"rtc_mhz", p.freq_mhz}, {"tick_ps", p.tick_ps}, {"slot_ps", p.slot},
          {"sync_period_slots", p.period}, {"sync_period_ps", p.sync_period}, {"periods", p.periods}, {"apply", p.apply}, {"clocks", clocks}};
}

std::string sync_results(const SyncPlan& p, const SyncMeter& meter, const std::vector<SyncNodeOutcome>& outcomes, nlohmann::json& results) {
  const Grouped g = group(p, meter.samples());
  nlohmann::json r = sync_plan_json(p);
  std::string slopes;
  r["slaves"] = slaves_json(p, g, slopes);
  r["per_period"] = nlohmann::json::array();
  std::string out = fmt::format("TDMA clock sync on {}: master n{}, {} slaves, sync every {} slots x {} = {}, {} periods, RTC {} MHz ({} ticks)\n",
                                p.network, p.master, p.slaves.size(), p.period, format_time(p.slot), format_time(p.sync_period), p.periods,
                                p.freq_mhz, format_time(static_cast<Time>(std::llround(p.tick_ps))));
  out += period_table(p, g, r["per_period"]);
  const SlaveSync& widest = *std::max_element(p.slaves.begin(), p.slaves.end(), [](const SlaveSync& a, const SlaveSync& b) { return a.bound_ps < b.bound_ps; });
  const double bound = widest.bound_ps, worst_rel = std::fabs(widest.rel_ppm);
  r["after_sync"] = g.after_all.json();
  r["before_next_sync"] = g.before_synced.json();
  r["unsynced"] = g.unsynced.json();
  r["bound_ps"] = std::llround(bound);
  r["within_bound"] = g.within;
  nlohmann::json nics = nlohmann::json::array();
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const SyncNodeOutcome& o = outcomes[i];
    nics.push_back({{"node", p.nodes[i]}, {"finished", o.done}, {"sent", o.sent}, {"received", o.received}, {"applied", o.applied},
                    {"refused_sends", o.refused}});
  }
  r["nics"] = nics;
  // The thesis (5.2): 0.5 us register resolution + at most 100 ppm between two nodes x 5 ms = 1 us.
  const double thesis = 500000 + 100e-6 * static_cast<double>(p.sync_period);
  r["thesis"] = {{"reported_ps", 1000000}, {"reported_period_ps", 5 * kMs}, {"budget_at_this_period_ps", std::llround(thesis)}};
  if (g.after_all.n == 0)
    out += fmt::format("synchronization disabled (tdma.sync.apply = 0): the clocks run free, worst offset {:.1f} ns after {} (slopes below)\n",
                       g.unsynced.worst / 1000, format_time(p.sync_period * (p.periods - 1)));
  else
    out += fmt::format("precision: worst {:.1f} ns after a sync (mean {:.1f}), worst {:.1f} ns just before the next (mean {:.1f}); derived bound {:.1f} ns "
                       "= resolution {:.1f} + transmission-time error {:.3f} + drift {:.1f} ({:.1f} ppm x {}): {}\n",
                       g.after_all.worst / 1000, g.after_all.mean() / 1000, g.before_synced.worst / 1000, g.before_synced.mean() / 1000, bound / 1000,
                       widest.resolution_ps / 1000, widest.tx_error_ps / 1000, widest.drift_ps / 1000, worst_rel, format_time(p.sync_period),
                       g.within ? "every slave within its bound while synchronized" : "EXCEEDED");
  // The bound covers the periods a sync was applied in; the others run free and say so.
  if (g.after_all.n > 0 && g.unsynced.n > 0)
    out += fmt::format("running free ({}): worst offset {:.1f} ns, which the bound does not cover (results.tdma_sync.unsynced)\n",
                       p.apply < 0 ? std::string("before the first sync")
                                   : fmt::format("before the first sync, or after the last of tdma.sync.apply = {}", p.apply),
                       g.unsynced.worst / 1000);
  out += fmt::format("thesis (5.2): ~1 us with a 5 ms period (0.5 us ticks + at most 100 ppm between two nodes); its budget at this period {:.1f} ns; "
                     "here up to {:.1f} ppm between a slave and the master\n", thesis / 1000, worst_rel);
  results["tdma_sync"] = r;
  return out + slopes;
}

}  // namespace sanvp::tdma
