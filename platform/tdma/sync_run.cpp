#include "platform/tdma/sync_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <numeric>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "hw/link/link_params.hpp"
#include "hw/nic/core_params.hpp"
#include "hw/nic/oscillator.hpp"
#include "hw/switch/switch_params.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/tdma/check.hpp"
#include "platform/tdma/scheduler.hpp"
#include "platform/tdma/sync_report.hpp"
#include "platform/tdma/sync_run_params.hpp"
#include "platform/tdma/tdma_params.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

double free_slope(double slave_ppm, double master_ppm) { return 1 - (1 + master_ppm * 1e-6) / (1 + slave_ppm * 1e-6); }

std::size_t SyncPlan::index_of(std::uint32_t node) const {
  return static_cast<std::size_t>(std::lower_bound(nodes.begin(), nodes.end(), node) - nodes.begin());
}

namespace {

// Oscillator errors spread evenly over [-drift, +drift] (the issue's +-100 ppm: two NICs differ
// by up to 2 x drift), in a seeded order; nN.osc.ppm given by the user wins.
void assign_ppm(ParamValues& pv, std::uint64_t seed, double drift, const std::vector<std::uint32_t>& nodes) {
  const std::size_t n = nodes.size();
  std::vector<std::size_t> rank(n);
  std::iota(rank.begin(), rank.end(), 0);
  Rng rng(seed, "tdma.sync.clocks");
  for (std::size_t i = n; i > 1; --i) std::swap(rank[i - 1], rank[rng.below(i)]);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string key = fmt::format("n{}.osc.ppm", nodes[i]);
    const double ppm = n > 1 ? -drift + 2 * drift * static_cast<double>(rank[i]) / static_cast<double>(n - 1) : 0.0;
    if (!pv.has(key)) pv.set(key, fmt::format("{:.6f}", ppm), "tdma.sync.drift spread");
  }
}

// Per NIC: its actual tick and slot 0 at `start` (nominal ticks, the same on every NIC: the
// slaves take the master's time). The nominal frequency must be one for all: the timestamps are
// in the master's ticks.
void derive_clocks(ParamValues& pv, Time start, SyncPlan& p) {
  for (const std::uint32_t node : p.nodes) {
    const nic::OscillatorConfig osc = nic::OscillatorConfig::from_params(pv, fmt::format("n{}.osc", node));
    if (p.clocks.empty()) p.freq_mhz = osc.freq_mhz;
    if (osc.freq_mhz != p.freq_mhz)
      throw UserError(fmt::format("n{}.osc.freq = {} MHz differs from n{}'s {} MHz: a slave takes the master's ticks, "
                                  "so every NIC needs the same nominal RTC frequency",
                                  node, osc.freq_mhz, p.nodes.front(), p.freq_mhz));
    p.tick_ps = 1e6 / osc.freq_mhz;
    fbs::ClockOfNode c;
    c.node = node;
    c.start = static_cast<std::uint64_t>(std::llround(static_cast<double>(start) / p.tick_ps));
    c.tick_ps = p.tick_ps / (1 + osc.ppm * 1e-6);
    p.ppm.push_back(osc.ppm);
    p.clocks.push_back(c);
  }
  const double ticks = static_cast<double>(p.slot) / p.tick_ps;
  if (std::fabs(ticks - std::round(ticks)) > 1e-6 || ticks < 1 || ticks > 4e9)
    throw UserError(fmt::format("tdma.slot = {} is {} ticks of the {} MHz RTC: choose nic.osc.freq so that it is a whole number below 2^32",
                                format_time(p.slot), ticks, p.freq_mhz));
  p.slot_ticks = static_cast<std::uint32_t>(std::llround(ticks));
  p.start = p.clocks.front().start;
  for (auto& c : p.clocks) c.slot_ticks = p.slot_ticks;
}

// The sync streams scheduled like any TDMA traffic (scheduler.hpp): each slave's slot in the
// period and its route. Every one must be admitted, or the run cannot synchronize that slave.
void schedule_sync(ParamValues& pv, const NetworkArg& net, SyncPlan& p) {
  const TdmaParams tp = TdmaParams::from_params(pv);
  SyncSpec spec;
  spec.master = static_cast<int>(p.master);
  spec.where = "tdma.sync.master";
  const std::vector<int> nics(p.nodes.begin(), p.nodes.end());
  const std::vector<Stream> streams = sync_streams(spec, nics, tp.sync_period, tp.sync_deadline, tp.sync_slots);
  const TdmaNetwork tn = tdma_network(net.name, net.topo, net.routes, net.routing, streams, RouteChoice{tp.alternates, tp.extra_hops});
  const TdmaSchedule s = schedule_streams(tn, streams, SchedulerConfig{tp.max_cycle, tp.tie_break});
  const TdmaCheck check = check_tdma_schedule(tn.topo, streams, s);
  if (!check.ok()) throw SimError(fmt::format("the scheduler's sync schedule fails its check ({} violations)", check.violations.size()));
  for (const Admission& a : s.admissions)
    if (!a.admitted) throw UserError(fmt::format("sync stream {} is not schedulable: {}", a.stream, a.reason));
  for (const Reservation& r : s.reservations) {
    const auto st = std::find_if(streams.begin(), streams.end(), [&](const Stream& x) { return x.id == r.stream; });
    SlaveSync sl;
    sl.node = static_cast<std::uint32_t>(st->dst);
    sl.pos = static_cast<std::uint32_t>(r.start);
    sl.route = r.route;
    p.slaves.push_back(sl);
  }
  std::sort(p.slaves.begin(), p.slaves.end(), [](const SlaveSync& a, const SlaveSync& b) { return a.node < b.node; });
  p.period = static_cast<std::uint32_t>(tp.sync_period);
  p.slot = tp.slot;
  p.sync_period = tp.slot * static_cast<Time>(tp.sync_period);
}

// Transmission time from the master's timed start to the slave's RTC read: the header through p
// switches, ld + p (rd + sd + ld) (README "The timing model"), the rest of the packet behind it,
// (L - p - 1) cp with L = p + kPayload + 1 (CRC), then kRxReadCycles of the slave's core. Link,
// switch and core values are the global ones (per-instance overrides are not looked at).
// In ticks it is rounded down: the slave's read truncates its clock by [0, 1) tick, so with the
// remainder e = tx - floor(tx) the clock after the sync is off by phase - e, within one tick
// either way (rounding to nearest would leave it up to 1.5 ticks ahead).
}  // namespace

void derive_tx(ParamValues& pv, SyncPlan& p) {
  const LinkTiming link = LinkTiming::from_params(pv);
  const double rd = static_cast<double>(SwitchParams::kRd.get(pv)), sd = static_cast<double>(SwitchParams::kSd.get(pv));
  const double ld = static_cast<double>(link.ld), cp = static_cast<double>(link.cp);
  const double core_ps = 1e6 / nic::CoreParams::kClock.get(pv);
  const double pm = p.ppm[p.index_of(p.master)];
  for (SlaveSync& s : p.slaves) {
    s.tx_ps = ld + static_cast<double>(s.route.size()) * (rd + sd + ld) + abi::kPayload * cp + abi::kRxReadCycles * core_ps;
    s.tx_ticks = static_cast<std::uint32_t>(std::floor(s.tx_ps / p.tick_ps));
    const double ps = p.ppm[p.index_of(s.node)];
    s.rel_ppm = ps - pm;
    // The bound's terms: the resolution (one tick); the transmission time counted at the nominal
    // rate while the clocks run at theirs, plus 2 ps for tick edges falling on whole ps (the
    // measurement's, both clocks); the drift over one sync period at the exact rate ratio.
    s.resolution_ps = p.tick_ps;
    s.tx_error_ps = s.tx_ps * (std::fabs(ps) + std::fabs(pm)) * 1e-6 + 2;
    // t_master(b) - t_slave(b) grows at 1 - f_m / f_s per unit of master time (sync_measure.hpp);
    // a period of the master's boundaries lasts sync_period / (1 + pm) of global time.
    s.drift_ps = std::fabs(free_slope(ps, pm)) * static_cast<double>(p.sync_period) / (1 - 1e-6 * std::fabs(pm));
    s.bound_ps = s.resolution_ps + s.tx_error_ps + s.drift_ps;
  }
}

namespace {

void build_plans(SyncPlan& p) {
  for (const std::uint32_t node : p.nodes) {
    SyncNodePlan np;
    np.master = node == p.master;
    np.slot_ticks = p.slot_ticks;
    np.period = p.period;
    np.periods = p.periods;
    np.start = p.start;
    np.apply = p.apply < 0 ? abi::kAll : static_cast<std::uint32_t>(p.apply);
    std::vector<const SlaveSync*> order;
    for (const SlaveSync& s : p.slaves) {
      if (np.master) order.push_back(&s);
      if (s.node == node) np.tx_ticks = s.tx_ticks;
    }
    std::sort(order.begin(), order.end(), [](const SlaveSync* a, const SlaveSync* b) { return a->pos < b->pos; });
    for (const SlaveSync* s : order) {
      np.sends.emplace_back(s->pos, s->node);
      np.routes.push_back(s->route);
    }
    p.plans.push_back(std::move(np));
  }
}

}  // namespace

SyncPlan plan_sync(ParamValues& pv, std::uint64_t seed, const NetworkArg& net) {
  const TdmaSyncParams sp = TdmaSyncParams::from_params(pv);
  SyncPlan p;
  p.network = net.name;
  p.master = static_cast<std::uint32_t>(sp.master);
  p.periods = static_cast<std::uint32_t>(sp.periods);
  p.apply = sp.apply;
  for (const int n : net.nics) p.nodes.push_back(static_cast<std::uint32_t>(n));
  std::sort(p.nodes.begin(), p.nodes.end());
  if (!std::binary_search(p.nodes.begin(), p.nodes.end(), p.master))
    throw UserError(fmt::format("tdma.sync.master = {} is not a NIC node of {}", p.master, net.name));
  if (p.nodes.size() < 2) throw UserError(fmt::format("{} has fewer than two NIC nodes: nothing to synchronize", net.name));
  if (!pv.has("nic.osc.freq")) pv.set("nic.osc.freq", "2", "sanvp tdma sync (the LANai's 0.5 us RTC ticks)");
  assign_ppm(pv, seed, sp.drift, p.nodes);
  schedule_sync(pv, net, p);
  if (static_cast<std::uint64_t>(p.period) * p.periods >= (std::uint64_t{1} << 32))
    throw UserError("tdma.sync.periods x tdma.sync_period: the firmware counts slots in 32 bits");
  derive_clocks(pv, sp.start, p);
  derive_tx(pv, p);
  build_plans(p);
  if (!pv.has("sim.limit")) {  // the run's own length: long runs exceed the default limit (1 s)
    const double need = static_cast<double>(sp.start) + (static_cast<double>(p.periods) + 1) * static_cast<double>(p.sync_period) * (1 + 2 * sp.drift * 1e-6);
    pv.set("sim.limit", fmt::format("{}ps", static_cast<std::uint64_t>(need * 1.01) + 10 * kMs), "sanvp tdma sync (periods x sync period)");
  }
  return p;
}

RunResult run_sync(ParamValues& pv, const RunOptions& opt, const NetworkArg& net) {
  const SyncPlan plan = plan_sync(pv, opt.seed, net);
  Scenario s;
  s.name = opt.scenario;
  s.topo = net.topo;
  // The scheduler's routes for the sync packets, so that the firmware's primary route is the one reserved.
  for (const SlaveSync& sl : plan.slaves) s.routes.push_back(ExplicitRoute{static_cast<int>(plan.master), static_cast<int>(sl.node), sl.route, Origin{}});
  auto outcomes = std::make_shared<std::vector<SyncNodeOutcome>>(plan.nodes.size());
  const std::string image = fw::builtin_firmware_image("tdma");
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    NodeProgram np;
    np.node = static_cast<int>(plan.nodes[i]);
    np.firmware = image;
    np.firmware_given = "builtin:tdma";
    np.host_app = "tdma-sync-loader";
    const SyncNodePlan node_plan = plan.plans[i];
    np.program = [node_plan, outcomes, i](host::Host& h, host::AppResult& r) { run_sync_loader(h, node_plan, (*outcomes)[i], r); };
    s.programs.push_back(std::move(np));
  }
  RunSpec spec = scenario_run_spec(s);
  spec.traffic = [](Network&) {};  // no test traffic: the sync packets only
  auto meter = std::make_shared<SyncMeter>(plan);
  spec.probe_sink = [meter](const nic::ProbeRecord& r) { meter->add(r); };
  spec.scenario_json["tdma_sync"] = sync_plan_json(plan);
  spec.results = [plan, meter, outcomes](nlohmann::json& r) { return sync_results(plan, *meter, *outcomes, r); };
  return run_simulation(pv, opt, spec);
}

}  // namespace sanvp::tdma
