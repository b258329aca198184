#include "platform/tdma/tdma_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <memory>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "hw/link/link_params.hpp"
#include "hw/switch/switch_params.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/tdma/check.hpp"
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
  const TdmaNetwork tn = tdma_network(net.name, net.topo, net.routes, net.routing, p.streams, RouteChoice{tp.alternates, tp.extra_hops});
  p.schedule = schedule_streams(tn, p.streams, SchedulerConfig{tp.max_cycle, tp.tie_break});
  const TdmaCheck check = check_tdma_schedule(tn.topo, p.streams, p.schedule);
  if (!check.ok()) throw SimError(fmt::format("the scheduler's schedule fails its check ({} violations)", check.violations.size()));
  for (const Admission& a : p.schedule.admissions)
    if (!a.admitted && p.stream(a.stream)->sync) throw UserError(fmt::format("sync stream {} is not schedulable: {}", a.stream, a.reason));
  for (const Reservation& r : p.schedule.reservations) p.max_hops = std::max(p.max_hops, static_cast<std::uint32_t>(r.route.size()));
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

// Node `node`'s entries: its reservations (sync ones if it is the master) and best-effort
// packets, in slot order, with the distances from one to the next.
std::vector<TdmaEntry> node_entries(const NetworkArg& net, const TdmaRunPlan& p, std::uint32_t node, std::uint64_t seed, std::uint32_t& first_pos) {
  std::vector<std::pair<std::uint32_t, TdmaEntry>> mine;
  for (const Reservation& r : p.schedule.reservations) {
    if (static_cast<std::uint32_t>(p.stream(r.stream)->src) != node) continue;
    TdmaEntry e;
    const bool sync = p.stream(r.stream)->sync;
    // The thesis: no early sending for sync messages. Nor for a message in its release slot: it
    // cannot leave before it is released (its latency counts from the release).
    const bool at_release = r.start % p.stream(r.stream)->period == 0;
    e.kind = sync ? abi::kKindSync : abi::kKindData;
    e.offset_ticks = sync || at_release ? 0 : p.early_ticks;
    if (!sync) check_fits(p, r);
    e.bytes = sync ? 0 : message_bytes(p, r);
    e.stream = static_cast<std::uint32_t>(r.stream);
    e.route = r.route;
    mine.emplace_back(static_cast<std::uint32_t>(r.start), e);
  }
  best_effort(net, p, node, seed, mine);
  std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TdmaEntry> v;
  const auto cycle = static_cast<std::uint32_t>(p.schedule.cycle);
  first_pos = mine.empty() ? 0 : mine.front().first;
  for (std::size_t j = 0; j < mine.size(); ++j) {
    TdmaEntry e = mine[j].second;
    const std::uint32_t pos = mine[j].first, prev = j ? mine[j - 1].first : mine.back().first - cycle;  // wraps: unsigned
    e.delta_slots = pos - prev;
    const std::uint64_t dt = std::uint64_t{e.delta_slots} * p.sync.slot_ticks;
    if (dt >= (std::uint64_t{1} << 32)) throw UserError(fmt::format("node {}: {} slots between two of its sends exceed the firmware's 32-bit tick deltas", node, e.delta_slots));
    e.delta_ticks = static_cast<std::uint32_t>(dt);
    v.push_back(e);
  }
  return v;
}

// The host writes data message m (slot n) stage_ahead before its slot start on its NIC's RTC
// (the TDMA time: the RTC of slot n is tdma.sync.start + n slots, in ticks), not on global time,
// which a drifting master leaves behind. The ring of kStageN buffers must not be overwritten
// before a message's slots end.
std::vector<StageJob> stage_jobs(const TdmaRunPlan& p, std::uint32_t node, const TdmaNodePlan& np) {
  std::vector<StageJob> jobs;
  std::vector<std::uint64_t> slot_end;
  const std::uint64_t ahead = ticks_up(p.stage_ahead, p.sync.tick_ps), slot = p.sync.slot_ticks;
  std::uint64_t n = np.first_slot;
  for (std::uint32_t c = 0; c < p.cycles; ++c)
    for (std::size_t j = 0; j < np.entries.size(); ++j) {
      const TdmaEntry& e = np.entries[j];
      if (c + j > 0) n += e.delta_slots;
      if (e.kind != abi::kKindData) continue;
      const std::uint64_t slot_start = p.sync.start + n * slot;
      StageJob job;
      job.m = static_cast<std::uint32_t>(jobs.size());
      job.rtc = slot_start > ahead ? slot_start - ahead : 0;
      job.bytes = e.bytes;
      job.stream = e.stream;
      const std::uint64_t end = slot_start + static_cast<std::uint64_t>(p.stream(e.stream)->slots) * slot;
      if (job.m >= abi::kStageN && job.rtc < slot_end[job.m - abi::kStageN])
        throw UserError(fmt::format("tdma.run.stage_ahead = {}: node {} would overwrite its message {} (staging ring of {}) before its slot ends; lower it",
                                    format_time(p.stage_ahead), node, job.m - abi::kStageN, abi::kStageN));
      slot_end.push_back(end);
      jobs.push_back(job);
    }
  return jobs;
}

void build_nodes(const NetworkArg& net, std::uint64_t seed, TdmaRunPlan& p) {
  for (std::size_t i = 0; i < p.sync.nodes.size(); ++i) {
    const std::uint32_t node = p.sync.nodes[i];
    const SyncNodePlan& sp = p.sync.plans[i];
    TdmaNodePlan np;
    np.master = sp.master;
    np.lead = ticks_up(p.lead, p.sync.tick_ps);
    np.tx_ticks = p.sync.slaves.empty() ? 0 : sp.tx_ticks;
    for (const SlaveSync& s : p.sync.slaves)
      if (s.node == node) np.tx_ticks = s.tx_ticks;
    np.apply = sp.apply;
    np.cycles = p.cycles;
    np.entries = node_entries(net, p, node, seed, np.first_slot);
    if (std::uint64_t{p.cycles} * np.entries.size() > 60000)
      throw UserError(fmt::format("node {} would send {} packets: more than the fabric's 16-bit packet ids tell apart (lower --cycles)", node,
                                  std::uint64_t{p.cycles} * np.entries.size()));
    for (const Reservation& r : p.schedule.reservations) {
      const Stream* st = p.stream(r.stream);
      if (st->sync && static_cast<std::uint32_t>(st->dst) == node) np.syncs += p.cycles;
    }
    if (!np.entries.empty()) {
      np.first = p.sync.start + std::uint64_t{np.first_slot} * p.sync.slot_ticks;
    }
    np.stage = stage_jobs(p, node, np);
    np.tick_ps = p.sync.tick_ps;
    np.resync = p.resync;
    np.poll = p.poll;
    p.nodes.push_back(std::move(np));
  }
}

}  // namespace

TdmaRunPlan plan_tdma_run(ParamValues& pv, std::uint64_t seed, const NetworkArg& net, const StreamFile& file, const RunKnobs& knobs) {
  TdmaRunPlan p;
  apply_knobs(pv, knobs, p);
  schedule_all(pv, net, file, p);
  const TdmaParams tp = TdmaParams::from_params(pv);
  if (!pv.has("sim.limit")) {  // the run's own length
    const double need = static_cast<double>(TdmaSyncParams::from_params(pv).start) +
                        (static_cast<double>(p.cycles) * static_cast<double>(p.schedule.cycle) + 2) * static_cast<double>(tp.slot) * 1.001;
    pv.set("sim.limit", fmt::format("{}ps", static_cast<std::uint64_t>(need * 1.01) + 10 * kMs), "sanvp tdma run (cycles x cycle)");
  }
  p.sync = plan_sync(pv, seed, net);
  sync_routes(pv, p);
  derive_early(p);
  reserved_links(net, p);
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
  spec.traffic = [meter](Network& net) { meter->watch_switches(net); };  // no test traffic
  spec.probe_sink = [meter](const nic::ProbeRecord& r) { meter->add_probe(r); };
  spec.scenario_json["tdma_run"] = run_plan_json(*plan);
  spec.results = [plan, meter, outcomes](nlohmann::json& r) { return run_results(*plan, meter->analyse(*outcomes), *outcomes, r); };
  return run_simulation(pv, opt, spec);
}

}  // namespace sanvp::tdma
