#include "platform/tdma/experiment_plan.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

#include "platform/scenario/network_arg.hpp"
#include "platform/tdma/sync_run.hpp"

namespace sanvp::tdma {

Time slot_eq44(Time t_setup, Time t_maxdrift, std::int64_t bytes, Time cp) {
  return t_setup + t_maxdrift + static_cast<Time>(bytes) * cp;
}

double utilization_eq51(Time tau, std::int64_t bytes, Time cp) {
  if (bytes <= 0) return 0;
  return 1.0 / (static_cast<double>(tau) / (static_cast<double>(bytes) * static_cast<double>(cp)) + 1.0);
}

MeshOverheads mesh_overheads(const ThesisInputs& in, Time eq44_slot) {
  MeshOverheads m;
  // Sub-masters one after the other, then all groups in parallel, plus the margin.
  m.separate = static_cast<Time>(in.submasters) * in.sync_msg + static_cast<Time>(in.slaves) * in.sync_msg + in.mesh_margin;
  const Time slots = static_cast<Time>(in.submasters + in.slaves);
  m.scheduled = slots * in.mesh_slot;
  const double period = static_cast<double>(in.sync_period);
  m.separate_pct = 100.0 * static_cast<double>(m.separate) / period;
  m.scheduled_pct = 100.0 * static_cast<double>(m.scheduled) / period;
  m.scheduled_eq44_pct = 100.0 * static_cast<double>(slots * eq44_slot) / period;
  return m;
}

PointBounds point_bounds(const ExpPoint& p, std::uint64_t seed) {
  ParamValues pv;
  apply_sets(pv, p.sets);
  const SyncPlan s = plan_sync(pv, seed, load_network_arg(p.net, {}));
  std::vector<double> b;
  for (const SlaveSync& sl : s.slaves) b.push_back(sl.bound_ps);
  std::sort(b.rbegin(), b.rend());
  const double sum = b.empty() ? 0 : b.size() == 1 ? b[0] : b[0] + b[1];
  return {static_cast<Time>(sum + 0.5), pv.time("", "link", "cp")};
}

namespace {

std::string src(const char* file) { return std::string(SANVP_TDMA_DIR) + "/" + file; }

// {early, no-early} x {no best effort, best-effort load 1} on Table A.1 / network A, the run's
// defaults; each also with ideal clocks (tdma.sync.drift = 0), the reference its latencies are
// compared with: a reserved packet's latency beyond it is what the clocks and any blocking add.
void appendix_points(std::int64_t cycles, std::vector<ExpPoint>& v) {
  for (const bool ideal : {false, true})
    for (const bool early : {true, false})
      for (const double be : {0.0, 1.0}) {
        ExpPoint p{ideal ? "appendix-ideal" : "appendix",
                   fmt::format("appendix-{}-{}{}", early ? "early" : "noearly", be > 0 ? "be" : "nobe", ideal ? "-ideal" : ""),
                   fmt::format("{}, {}{}", early ? "early sending" : "no early sending", be > 0 ? "best-effort load 1" : "no best effort",
                               ideal ? ", ideal clocks" : ""),
                   src("appendix-a.streams.yaml"), "tdma-a", {}, {early ? "--early" : "--no-early"}, cycles, early, be, 1 * kUs, 1024};
        if (be > 0) p.flags.insert(p.flags.end(), {"--best-effort", "1"});
        // Drifting: the seeded oscillators of tdma.sync.drift, the master's too (the hosts pace
        // their staging by their NIC's clock, so the TDMA time may run away from global time).
        if (ideal) p.sets.push_back("tdma.sync.drift=0");
        v.push_back(p);
      }
}

// The part-3 margin set-up: 1 ns ticks, 10 us slots, sync every 400 slots (4 ms), n1 100 ppm slow.
ExpPoint margin_base(std::int64_t cycles) {
  ExpPoint p;
  p.group = "margin";
  p.streams = src("experiment_margin.streams.yaml");
  p.net = "tdma-a";
  p.sets = {"nic.osc.freq=1000", "tdma.slot=10us", "tdma.run.stage_ahead=30us", "tdma.sync_period=400", "tdma.run.payload=1400",
            "n0.osc.ppm=0", "n1.osc.ppm=-100", "n2.osc.ppm=100", "n3.osc.ppm=0"};
  p.cycles = cycles;
  p.payload = 1400;
  return p;
}

void margin_points(const ExperimentOptions& o, std::int64_t cycles, std::vector<ExpPoint>& v) {
  const ExpPoint base = margin_base(cycles);
  const Time drift = point_bounds(base, o.seed).t_maxdrift;
  // Fractions of the drift bound: 0 and 1/8 below it (blocking expected), 1/2 (below the bound,
  // above the actual lag: the bound is conservative), at it, 5/4 above it (a 1400-byte packet,
  // 8.86 us, leaves 1.14 us of the 10 us slot for the margin).
  std::vector<std::pair<int, int>> fr{{0, 1}, {1, 8}, {1, 2}, {1, 1}, {5, 4}};
  if (o.quick) fr = {{1, 8}, {1, 1}};
  for (const auto& [n, d] : fr) {
    ExpPoint p = base;
    p.margin = drift * static_cast<Time>(n) / static_cast<Time>(d);
    p.id = fmt::format("margin-{}-{}", n, d);
    p.label = fmt::format("margin {}/{} T_maxdrift = {}", n, d, format_time(p.margin));
    p.flags = {"--early", "--margin", fmt::format("{}ps", p.margin)};
    v.push_back(p);
  }
}

// One stream across the trunk, sent at its slot start, 60 us slots (an 8192-byte packet fits).
void utilization_points(const ExperimentOptions& o, std::int64_t cycles, std::vector<ExpPoint>& v) {
  std::vector<std::int64_t> sizes{64, 256, 1024, 1300, 2048, 3400, 5000, 8192};
  if (o.quick) sizes = {256, 3400};
  for (const std::int64_t m : sizes) {
    ExpPoint p{"utilization", fmt::format("util-{}", m), fmt::format("{} bytes", m), src("experiment_utilization.streams.yaml"), "tdma-a",
               {"tdma.slot=60us", fmt::format("tdma.run.payload={}", m)}, {"--no-early"}, cycles, false, 0, 1 * kUs, m};
    v.push_back(p);
  }
}

}  // namespace

std::vector<ExpPoint> experiment_points(const ExperimentOptions& o) {
  const std::int64_t cycles = o.quick ? std::min<std::int64_t>(o.cycles, 10) : o.cycles;
  std::vector<ExpPoint> v;
  appendix_points(cycles, v);
  // A margin cycle is 400 slots of 10 us (4 ms, one sync period): at least 3, else a tenth as many.
  margin_points(o, std::max<std::int64_t>(3, cycles / 10), v);
  utilization_points(o, std::max<std::int64_t>(3, cycles / 10), v);
  if (o.only.empty()) return v;
  // --only: the named points (by id or group), e.g. one Appendix A point at 10^4 cycles.
  std::vector<ExpPoint> kept;
  for (const std::string& name : o.only) {
    bool known = false;
    for (const ExpPoint& p : v) known = known || p.id == name || p.group == name;
    if (!known) {
      std::string ids;
      for (const ExpPoint& p : v) ids += " " + p.id;
      throw UserError(fmt::format("--only: no point or group '{}' (groups: appendix appendix-ideal margin utilization; points:{})", name, ids));
    }
  }
  for (const ExpPoint& p : v)
    if (std::find(o.only.begin(), o.only.end(), p.id) != o.only.end() || std::find(o.only.begin(), o.only.end(), p.group) != o.only.end())
      kept.push_back(p);
  return kept;
}

}  // namespace sanvp::tdma
