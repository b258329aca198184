#include "platform/tdma/tdma_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <chrono>
#include <cstdio>
#include <memory>
#include <systemc>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "hw/link/link_params.hpp"
#include "hw/switch/switch_params.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/tdma/check.hpp"
#include "platform/tdma/control_net_params.hpp"
#include "platform/tdma/dynamic.hpp"
#include "hw/pci/pci_bus.hpp"
#include "platform/tdma/sync_run_params.hpp"
#include "platform/tdma/tdma_params.hpp"
#include "platform/tdma/tdma_run_measure.hpp"
#include "platform/tdma/tdma_run_params.hpp"
#include "platform/tdma/tdma_run_report.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

const Stream* TdmaRunPlan::stream(std::int64_t id) const {
  for (const Stream& s : streams)
    if (s.id == id) return &s;
  return nullptr;
}

namespace {

void apply_knobs(ParamValues& pv, const RunKnobs& k, TdmaRunPlan& p) {
  const TdmaRunParams rp = TdmaRunParams::from_params(pv);
  const std::int64_t cycles = k.cycles.value_or(rp.cycles);
  if (cycles < 1 || cycles > 1000000) throw UserError(fmt::format("cycles = {} is outside 1..1000000", cycles));
  if (k.best_effort && !(*k.best_effort >= 0 && *k.best_effort <= 1)) throw UserError(fmt::format("best-effort load {} is outside 0..1", *k.best_effort));
  p.cycles = static_cast<std::uint32_t>(cycles);
  p.early = k.early.value_or(rp.early);
  p.margin = k.margin.value_or(rp.margin);
  p.best_effort = k.best_effort.value_or(rp.best_effort);
  p.payload = static_cast<std::uint32_t>(rp.payload);
  p.best_bytes = static_cast<std::uint32_t>(rp.best_bytes);
  p.lead = rp.lead;
  p.stage_ahead = rp.stage_ahead;
  p.resync = rp.resync;
  p.poll = rp.poll;
  p.sync_on = k.sync.value_or(true);
  if (!p.sync_on) pv.set("tdma.sync.apply", "0", "sanvp tdma run --no-sync");
  const LinkTiming link = LinkTiming::from_params(pv);
  p.cp = link.cp;
  p.ld = link.ld;
  p.rd = SwitchParams::kRd.get(pv);
  p.sd = SwitchParams::kSd.get(pv);
}

// The schedule versions along the file's changes (dynamic.hpp); the streams the changes add join
// p.streams (after version 0 is scheduled), so that every stream of the run is known by id.
void plan_versions(const NetworkArg& net, const StreamFile& f, const TdmaNetwork& tn, const SchedulerConfig& sc, TdmaRunPlan& p) {
  p.dyn = std::make_shared<DynamicPlan>();
  DynamicPlan& d = *p.dyn;
  d.net = tn;
  d.sched = sc;
  d.changes = f.changes;
  d.versions.push_back(ScheduleVersion{-1, p.streams, p.schedule, schedule_hash(p.schedule)});
  std::vector<std::uint32_t> nodes;
  for (const int n : net.nics) nodes.push_back(static_cast<std::uint32_t>(n));
  std::sort(nodes.begin(), nodes.end());
  plan_changes(p.streams, f.changes, net.nics, nodes, d);
  for (const StreamChange& c : f.changes)
    if (c.add) p.streams.push_back(*c.add);
}

// The stream file's streams and the clock-sync streams (the file's `sync`, else tdma.sync.master),
// scheduled together like any TDMA traffic. A sync stream that does not fit is an error.
void schedule_all(ParamValues& pv, const NetworkArg& net, const StreamFile& file, TdmaRunPlan& p) {
  const TdmaParams tp = TdmaParams::from_params(pv);
  StreamFile f = file;
  if (f.sync) {
    if (!pv.has("tdma.sync.master")) pv.set("tdma.sync.master", std::to_string(f.sync->master), f.sync->where);
  } else {
    SyncSpec spec;
    spec.master = static_cast<int>(TdmaSyncParams::from_params(pv).master);
    spec.first_id = 1000000;
    spec.where = "tdma.sync.master";
    for (const Stream& s : f.streams) spec.first_id = std::max(spec.first_id, s.id + 1);
    f.sync = spec;
  }
  p.streams_name = f.name.empty() ? f.file : f.name;
  p.streams = streams_for(f, net.nics, tp.sync_period, tp.sync_deadline, tp.sync_slots);
  std::vector<Stream> every = p.streams;  // candidate routes for every stream a change may add too
  for (const StreamChange& c : f.changes)
    if (c.add) every.push_back(*c.add);
  const TdmaNetwork tn = tdma_network(net.name, net.topo, net.routes, net.routing, every, RouteChoice{tp.alternates, tp.extra_hops});
  p.schedule = schedule_streams(tn, p.streams, SchedulerConfig{tp.max_cycle, tp.tie_break});
  const TdmaCheck check = check_tdma_schedule(tn.topo, p.streams, p.schedule);
  if (!check.ok()) throw SimError(fmt::format("the scheduler's schedule fails its check ({} violations)", check.violations.size()));
  for (const Admission& a : p.schedule.admissions)
    if (!a.admitted && p.stream(a.stream)->sync) throw UserError(fmt::format("sync stream {} is not schedulable: {}", a.stream, a.reason));
  plan_versions(net, f, tn, SchedulerConfig{tp.max_cycle, tp.tie_break}, p);
  for (const ScheduleVersion& v : p.dyn->versions)
    for (const Reservation& r : v.schedule.reservations) p.max_hops = std::max(p.max_hops, static_cast<std::uint32_t>(r.route.size()));
}

// The slaves' transmission times follow the routes the joint schedule reserved for their syncs.
void sync_routes(ParamValues& pv, TdmaRunPlan& p) {
  for (SlaveSync& s : p.sync.slaves) {
    std::size_t len = 0;
    bool first = true;
    for (const Reservation& r : p.schedule.reservations) {
      const Stream* st = p.stream(r.stream);
      if (!st->sync || static_cast<std::uint32_t>(st->dst) != s.node) continue;
      if (!first && r.route.size() != len)
        throw UserError(fmt::format("the syncs to node {} were given routes of different lengths: one transmission time cannot fit both", s.node));
      if (first) s.route = r.route, s.pos = static_cast<std::uint32_t>(r.start);
      len = r.route.size();
      first = false;
    }
  }
  derive_tx(pv, p.sync);
}

std::uint32_t ticks_up(Time t, double tick_ps) { return static_cast<std::uint32_t>(std::ceil(static_cast<double>(t) / tick_ps - 1e-9)); }

// Early sending (thesis 4.4): the message of slot n+1 starts T_early = T_a + T_margin after the
// start of slot n, T_a = the header's time through the longest reserved route (every head of
// slot n has reached its destination's link by then).
void derive_early(TdmaRunPlan& p) {
  p.t_a = p.ld + p.max_hops * (p.rd + p.sd + p.ld);
  p.t_early = p.t_a + p.margin;
  if (p.early && p.t_early >= p.sync.slot)
    throw UserError(fmt::format("T_early = T_a {} + tdma.run.margin {} = {} is not shorter than tdma.slot {}: no early sending is possible",
                                format_time(p.t_a), format_time(p.margin), format_time(p.t_early), format_time(p.sync.slot)));
  p.early_ticks = p.early ? -static_cast<std::int64_t>(p.sync.slot_ticks - ticks_up(p.t_early, p.sync.tick_ps)) : 0;
}

std::uint32_t message_bytes(const TdmaRunPlan& p, const Reservation& r) {
  const std::uint64_t b = std::uint64_t{p.payload} * static_cast<std::uint64_t>(r.slots);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(b, abi::kMaxPayload));
}

// A reserved message must fit its slots: its wire time at most its slots minus the margin.
void check_fits(const TdmaRunPlan& p, const Reservation& r) {
  const Time wire = static_cast<Time>(r.route.size() + abi::kDataHeader + message_bytes(p, r) + 1) * p.cp;
  const Time room = static_cast<Time>(r.slots) * p.sync.slot;
  if (wire + p.margin > room)
    throw UserError(fmt::format("stream {}: a message of {} bytes takes {} on the wire, more than its {} slot(s) of {} minus tdma.run.margin",
                                r.stream, message_bytes(p, r), format_time(wire), r.slots, format_time(p.sync.slot)));
  if (r.route.size() > abi::kMaxRoute) throw UserError(fmt::format("stream {}: a route of {} switches exceeds the firmware's {}", r.stream, r.route.size(), abi::kMaxRoute));
}

// The (link, slot) pairs the schedule reserves: best-effort packets stay out of them.
void reserved_links(const NetworkArg& net, TdmaRunPlan& p) {
  p.topo = net.topo;
  const auto pm = net.topo.port_map();
  for (const Reservation& r : p.schedule.reservations) {
    const Stream* st = p.stream(r.stream);
    for (const std::string& l : route_link_names(net.topo, pm, st->src, st->dst, r.route))
      for (std::int64_t q = r.start; q < r.start + r.slots; ++q) p.reserved.emplace(l, q % p.schedule.cycle);
  }
}

// Best-effort packets of `node` (tdma.run.best_effort): in a slot q of the cycle in which it sends
// nothing reserved, to the destination q picks in turn among the other NICs, over the network's
// route, only if no link of that route is reserved in q; each such slot carries one with
// probability `best_effort` (seeded). It starts T_margin after the slot start and must end
// T_margin before the next, so it never holds a link a reserved packet needs in its own slot.
void best_effort(const NetworkArg& net, const TdmaRunPlan& p, std::uint32_t node, std::uint64_t seed,
                 std::vector<std::pair<std::uint32_t, TdmaEntry>>& out) {
  if (p.best_effort <= 0) return;
  const Time wire = static_cast<Time>(p.max_hops + abi::kDataHeader + p.best_bytes + 1) * p.cp;
  if (wire + 2 * p.margin > p.sync.slot)
    throw UserError(fmt::format("tdma.run.best_bytes = {}: a best-effort packet takes {} on the wire, more than tdma.slot {} minus twice the margin",
                                p.best_bytes, format_time(wire), format_time(p.sync.slot)));
  std::set<std::uint32_t> own;
  for (const auto& [pos, e] : out) own.insert(pos);
  std::vector<int> dests;
  for (const int n : net.nics) if (static_cast<std::uint32_t>(n) != node) dests.push_back(n);
  const auto pm = net.topo.port_map();
  Rng rng(seed, fmt::format("tdma.run.best_effort.n{}", node));
  for (std::int64_t q = 0; q < p.schedule.cycle; ++q) {
    if (own.count(static_cast<std::uint32_t>(q)) || dests.empty()) continue;
    const int dst = dests[static_cast<std::size_t>(q + node) % dests.size()];
    const std::vector<std::uint8_t> route = net.routes.vec(static_cast<int>(node), dst);
    if (route.empty() || route.size() > abi::kMaxRoute) continue;
    bool free = true;
    for (const std::string& l : route_link_names(net.topo, pm, static_cast<int>(node), dst, route)) free = free && !p.reserved.count({l, q});
    if (!free || rng.uniform01() >= p.best_effort) continue;
    TdmaEntry e;
    e.kind = abi::kKindBest;
    e.offset_ticks = ticks_up(p.margin, p.sync.tick_ps);
    e.bytes = p.best_bytes;
    e.stream = static_cast<std::uint32_t>(dst);
    e.route = route;
    out.emplace_back(static_cast<std::uint32_t>(q), e);
  }
}

// Node `node`'s bank for `sched`: its reservations (sync ones if it is the master) and best-effort
// packets, in slot order, each at its position in the cycle.
TdmaBank node_bank(const NetworkArg& net, const TdmaRunPlan& p, const TdmaSchedule& sched, std::uint32_t node, std::uint64_t seed, bool best) {
  std::vector<std::pair<std::uint32_t, TdmaEntry>> mine;
  TdmaBank bank;
  for (const Reservation& r : sched.reservations) {
    const Stream* st = p.stream(r.stream);
    if (st->sync && static_cast<std::uint32_t>(st->dst) == node) ++bank.syncs;
    if (static_cast<std::uint32_t>(st->src) != node) continue;
    TdmaEntry e;
    // The thesis: no early sending for sync messages. Nor for a message in its release slot: it
    // cannot leave before it is released (its latency counts from the release).
    const bool at_release = r.start % st->period == 0;
    e.kind = st->sync ? abi::kKindSync : abi::kKindData;
    e.offset_ticks = st->sync || at_release ? 0 : p.early_ticks;
    if (!st->sync) check_fits(p, r);
    e.bytes = st->sync ? 0 : message_bytes(p, r);
    e.stream = static_cast<std::uint32_t>(r.stream);
    e.slots = static_cast<std::uint32_t>(r.slots);
    e.route = r.route;
    mine.emplace_back(static_cast<std::uint32_t>(r.start), e);
  }
  if (best) best_effort(net, p, node, seed, mine);
  std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::uint64_t cycle_ticks = static_cast<std::uint64_t>(sched.cycle) * p.sync.slot_ticks;
  if (cycle_ticks >= (std::uint64_t{1} << 32))
    throw UserError(fmt::format("a cycle of {} slots is {} RTC ticks: more than the firmware's 32-bit positions", sched.cycle, cycle_ticks));
  bank.cycle_slots = static_cast<std::uint32_t>(sched.cycle);
  bank.cycle_ticks = static_cast<std::uint32_t>(cycle_ticks);
  for (auto& [pos, e] : mine) {
    e.pos_slots = pos;
    e.pos_ticks = pos * p.sync.slot_ticks;
    bank.entries.push_back(e);
  }
  return bank;
}

void build_nodes(const NetworkArg& net, std::uint64_t seed, TdmaRunPlan& p) {
  for (std::size_t i = 0; i < p.sync.nodes.size(); ++i) {
    const std::uint32_t node = p.sync.nodes[i];
    const SyncNodePlan& sp = p.sync.plans[i];
    TdmaNodePlan np;
    np.index = i;
    np.master = sp.master;
    np.lead = ticks_up(p.lead, p.sync.tick_ps);
    np.apply = sp.apply;
    np.cycles = p.cycles;
    np.first = p.sync.start;
    np.slot_ticks = p.sync.slot_ticks;
    np.stage_ahead = ticks_up(p.stage_ahead, p.sync.tick_ps);
    for (const ScheduleVersion& v : p.dyn->versions) {
      TdmaBank b = node_bank(net, p, v.schedule, node, seed, &v == &p.dyn->versions.front());
      b.tx_ticks = p.sync.slaves.empty() ? 0 : sp.tx_ticks;
      for (const SlaveSync& s : p.sync.slaves)
        if (s.node == node) b.tx_ticks = s.tx_ticks;
      np.versions.push_back(std::move(b));
    }
    np.tick_ps = p.sync.tick_ps;
    np.resync = p.resync;
    np.poll = p.poll;
    if (!p.dyn->changes.empty()) np.dyn = p.dyn;
    p.nodes.push_back(std::move(np));
  }
}

// The slaves' transmission times follow their sync routes (sync_routes): a change may move a sync
// only to a route of the same length, as each firmware bank keeps the slave's one tx_ticks.
void check_sync_routes(const TdmaRunPlan& p) {
  for (const ScheduleVersion& v : p.dyn->versions)
    for (const Reservation& r : v.schedule.reservations) {
      const Stream* st = p.stream(r.stream);
      if (!st->sync) continue;
      for (const SlaveSync& s : p.sync.slaves)
        if (s.node == static_cast<std::uint32_t>(st->dst) && s.route.size() != r.route.size())
          throw UserError(fmt::format("{}: the new schedule moves the sync to node {} to a route of {} switches ({} before): one "
                                      "transmission time per slave", p.dyn->changes.at(static_cast<std::size_t>(v.change)).where, s.node,
                                      r.route.size(), s.route.size()));
    }
}

// The control network and the switch-over lead (dynamic.hpp): the last commit's delivery, the
// loader's PCI time (a staging write it may be in, the switch words), the guard and the staging
// of the new cycle's first message (or the firmware's check, two leads before the boundary).
void plan_control(ParamValues& pv, TdmaRunPlan& p) {
  DynamicPlan& d = *p.dyn;
  const TdmaCtlParams cp = TdmaCtlParams::from_params(pv);
  if (!d.changes.empty() && p.best_effort > 0) throw UserError("best-effort load with stream changes: not supported (the free slots change with the schedule)");
  check_sync_routes(p);
  d.coordinator = p.sync.index_of(p.sync.master);
  d.mute = -1;
  if (cp.mute >= 0) {
    const auto it = std::find(p.sync.nodes.begin(), p.sync.nodes.end(), static_cast<std::uint32_t>(cp.mute));
    if (it == p.sync.nodes.end()) throw UserError(fmt::format("tdma.ctl.mute = {}: no such node", cp.mute));
    d.mute = static_cast<int>(it - p.sync.nodes.begin());
  }
  d.latency = cp.latency;
  d.per_byte = cp.per_byte;
  d.guard = cp.guard;
  d.cycles = p.cycles;
  std::uint32_t largest = 0;
  for (const ScheduleVersion& v : d.versions)
    for (const Reservation& r : v.schedule.reservations)
      if (!p.stream(r.stream)->sync) largest = std::max(largest, message_bytes(p, r));
  for (const std::uint32_t node : p.sync.nodes) {
    const PciConfig pci = PciConfig::from_params(pv, fmt::format("n{}.pci", node));
    d.busy = std::max(d.busy, pci.transaction(abi::kStageHead + (largest + 3) / 4 * 4));
    d.arm = std::max(d.arm, pci.transaction(8));
  }
  const std::size_t n = p.sync.nodes.size();
  d.ctl = std::make_shared<ControlNet>(n, d.latency, d.per_byte);
  d.commit_lead = d.ctl->burst(n > 1 ? n - 1 : 1) + d.busy + d.arm + d.guard + std::max(p.stage_ahead, 2 * p.lead);
  d.records = std::make_shared<std::vector<SwitchRecord>>(d.changes.size());
  for (SwitchRecord& r : *d.records)
    for (auto* v : {&r.demand_rx, &r.ack_sent, &r.ack_rx, &r.commit_rx, &r.armed, &r.switched_at}) v->assign(n, kNever);
}

// A progress bar on stderr for long runs: the cycles done by global time (display only), the wall
// time and an estimate of the rest, every 2 % of the run.
void progress_bar(const TdmaRunPlan& p, Time start) {
  const auto wall0 = std::chrono::steady_clock::now();
  const Time cycle = p.sync.slot * static_cast<Time>(p.schedule.cycle);
  const Time total = cycle * static_cast<Time>(p.cycles), step = std::max<Time>(cycle, total / 50);
  for (Time t = step; t <= total; t += step) {
    sc_core::wait(sc_core::sc_time::from_value(start + t) - sc_core::sc_time_stamp());
    const double f = static_cast<double>(t) / static_cast<double>(total);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const int bar = static_cast<int>(f * 40);
    std::fprintf(stderr, "\rTDMA run [%s%s] %3.0f%% cycle %llu/%u, %.0f s wall, about %.0f s left", std::string(bar, '#').c_str(),
                 std::string(40 - bar, '.').c_str(), 100 * f, static_cast<unsigned long long>(t / cycle), p.cycles, wall, wall / f - wall);
  }
  std::fprintf(stderr, "\n");
}

}  // namespace

TdmaRunPlan plan_tdma_run(ParamValues& pv, std::uint64_t seed, const NetworkArg& net, const StreamFile& file, const RunKnobs& knobs) {
  TdmaRunPlan p;
  apply_knobs(pv, knobs, p);
  schedule_all(pv, net, file, p);
  const TdmaParams tp = TdmaParams::from_params(pv);
  if (!pv.has("sim.limit")) {  // the run's own length
    std::int64_t longest = 0;  // a change may lengthen the cycle
    for (const ScheduleVersion& v : p.dyn->versions) longest = std::max(longest, v.schedule.cycle);
    const double need = static_cast<double>(TdmaSyncParams::from_params(pv).start) +
                        (static_cast<double>(p.cycles) * static_cast<double>(longest) + 2) * static_cast<double>(tp.slot) * 1.001;
    pv.set("sim.limit", fmt::format("{}ps", static_cast<std::uint64_t>(need * 1.01) + 10 * kMs), "sanvp tdma run (cycles x cycle)");
  }
  p.sync = plan_sync(pv, seed, net);
  sync_routes(pv, p);
  derive_early(p);
  reserved_links(net, p);
  plan_control(pv, p);
  build_nodes(net, seed, p);
  return p;
}

RunResult run_tdma(ParamValues& pv, const RunOptions& opt, const NetworkArg& net, const StreamFile& file, const RunKnobs& knobs) {
  const auto plan = std::make_shared<const TdmaRunPlan>(plan_tdma_run(pv, opt.seed, net, file, knobs));
  Scenario s;
  s.name = opt.scenario;
  s.topo = net.topo;
  auto outcomes = std::make_shared<std::vector<TdmaNodeOutcome>>(plan->sync.nodes.size());
  auto meter = std::make_shared<RunMeter>(plan);
  const std::string image = fw::builtin_firmware_image("tdma");
  for (std::size_t i = 0; i < plan->sync.nodes.size(); ++i) {
    NodeProgram np;
    np.node = static_cast<int>(plan->sync.nodes[i]);
    np.firmware = image;
    np.firmware_given = "builtin:tdma";
    np.host_app = "tdma-loader";
    np.program = [plan, outcomes, meter, i](host::Host& h, host::AppResult& r) {
      meter->watch_nic(i, h.nic());  // before the firmware sends anything
      run_tdma_loader(h, plan->nodes[i], (*outcomes)[i], r);
    };
    s.programs.push_back(std::move(np));
  }
  RunSpec spec = scenario_run_spec(s);
  const Time start = static_cast<Time>(static_cast<double>(plan->sync.start) * plan->sync.tick_ps);
  spec.traffic = [meter, plan, start, progress = knobs.progress](Network& net) {
    meter->watch_switches(net);  // no test traffic
    if (progress) sc_core::sc_spawn([plan, start] { progress_bar(*plan, start); });
  };
  spec.probe_sink = [meter](const nic::ProbeRecord& r) { meter->add_probe(r); };
  spec.scenario_json["tdma_run"] = run_plan_json(*plan);
  spec.results = [plan, meter, outcomes](nlohmann::json& r) { return run_results(*plan, meter->analyse(*outcomes), *outcomes, r); };
  RunResult res = run_simulation(pv, opt, spec);
  if (knobs.progress) std::fputs("\n", stderr);  // the bar stops short of 100 % when the last send ends the run
  return res;
}

}  // namespace sanvp::tdma
