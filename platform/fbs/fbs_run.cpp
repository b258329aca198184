#include "platform/fbs/fbs_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <numeric>

#include "firmware/fbs/fbs_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "hw/link/link_params.hpp"
#include "hw/nic/oscillator.hpp"
#include "platform/fbs/fbs_model_params.hpp"
#include "platform/fbs/fbs_analysis.hpp"
#include "platform/fbs/fbs_report.hpp"
#include "platform/fbs/fbs_run_params.hpp"
#include "platform/fbs/schedule_run.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/scenario/scenario.hpp"

namespace sanvp::fbs {

namespace {

namespace abi = sanvp::fbs_abi;

// Oscillator errors spread evenly over [-drift/2, +drift/2] (the fastest and slowest NICs are
// exactly `drift` apart, the paper's drift rate between two clocks), in a seeded order.
void assign_clocks(ParamValues& pv, std::uint64_t seed, RunPlan& p) {
  const std::size_t n = p.nodes.size();
  std::vector<std::size_t> rank(n);
  std::iota(rank.begin(), rank.end(), 0);
  Rng rng(seed, "fbs.clocks");
  for (std::size_t i = n; i > 1; --i) std::swap(rank[i - 1], rank[rng.below(i)]);
  if (!pv.has("nic.osc.freq")) pv.set("nic.osc.freq", "1000", "sanvp fbs (1 ns RTC ticks)");
  for (std::size_t i = 0; i < n; ++i) {
    const std::string key = fmt::format("n{}.osc.ppm", p.nodes[i]);
    if (!pv.has(key)) {
      const double ppm = n > 1 ? -p.drift_ppm / 2 + p.drift_ppm * static_cast<double>(rank[i]) / static_cast<double>(n - 1) : 0.0;
      pv.set(key, fmt::format("{:.6f}", ppm), "fbs.drift spread");
    }
  }
}

// Per NIC: the slot in nominal ticks (exact, or a UserError), the actual tick and a start offset.
void derive_clocks(ParamValues& pv, std::uint64_t seed, Time initial_skew, Time start, RunPlan& p) {
  Rng rng(seed, "fbs.initial_skew");
  for (const std::uint32_t node : p.nodes) {
    const nic::OscillatorConfig osc = nic::OscillatorConfig::from_params(pv, fmt::format("n{}.osc", node));
    const double ticks = static_cast<double>(p.slot) * osc.freq_mhz / 1e6;
    if (std::fabs(ticks - std::round(ticks)) > 1e-6 || ticks < 1 || ticks > 4e9)
      throw UserError(fmt::format("n{}: a slot of {} is {} ticks of the {} MHz oscillator: choose nic.osc.freq so that it is a whole number below 2^32",
                                  node, format_time(p.slot), ticks, osc.freq_mhz));
    const double per_tick = 1e6 / osc.freq_mhz;
    const auto half = static_cast<std::int64_t>(std::llround(static_cast<double>(initial_skew) / 2 / per_tick));
    const std::int64_t drawn = half ? static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(2 * half + 1))) - half : 0;
    const std::int64_t off = drawn + FbsRunParams::kOffsetTicks.get(pv, fmt::format("n{}.fbs", node));
    ClockOfNode c;
    c.node = node;
    c.slot_ticks = static_cast<std::uint32_t>(std::llround(ticks));
    c.start = static_cast<std::uint64_t>(std::llround(static_cast<double>(start) / per_tick) + off);
    c.tick_ps = per_tick / (1 + osc.ppm * 1e-6);
    p.ppm.push_back(osc.ppm);
    p.offset.push_back(off);
    p.clocks.push_back(c);
  }
}

std::vector<std::uint32_t> table_of(const Schedule& s, std::uint32_t node) {
  std::vector<std::uint32_t> t(static_cast<std::size_t>(s.slots), abi::kNoSend);
  for (const Message& m : s.messages)
    if (m.src == static_cast<int>(node)) t.at(static_cast<std::size_t>(m.slot - s.first_slot)) = static_cast<std::uint32_t>(m.dst);
  return t;
}

void check_plan(const RunPlan& p, const RunInput& in, std::size_t longest_route) {
  const auto S = static_cast<std::uint32_t>(in.schedule.slots);
  if (S == 0 || S > abi::kMaxSyncSlots)
    throw UserError(fmt::format("the schedule takes {} slots; the FBS firmware runs 1 to {}", S, abi::kMaxSyncSlots));
  if (p.period < S + 2)
    throw UserError(fmt::format("fbs.interval = {} slots: a period needs the {} slots of the round and two more", p.period, S));
  if (p.packet_len > abi::kMaxPacket || p.packet_len < abi::kMinPacket + longest_route)
    throw UserError(fmt::format("fbs.slot_bytes - fbs.guard - 1 (CRC) = {} bytes per sync packet: the firmware sends {} to {} bytes here",
                                p.packet_len, abi::kMinPacket + longest_route, abi::kMaxPacket));
  if (static_cast<std::uint64_t>(p.period) * p.rounds >= (std::uint64_t{1} << 32))
    throw UserError(fmt::format("fbs.rounds x fbs.interval = {} slots: the firmware counts slots in 32 bits", std::uint64_t{p.period} * p.rounds));
}

}  // namespace

RunInput make_run_input(const NetworkArg& net, const std::string& kind) {
  ScheduleRequest q;
  q.kind = kind;
  ScheduleRun sr = run_schedule(net, q);
  if (sr.kind == "hss" && !sr.check.ok()) {  // the network's routes leave the tree: use the tree's
    q.routes = "tree";
    sr = run_schedule(net, q);
  }
  if (!sr.check.ok())
    throw UserError(fmt::format("the {} schedule is not a synchronizing schedule on {}:\n{}", sr.kind, net.name, format_check(sr.check, 10)));
  RunInput in;
  in.topo = net.topo;
  in.nics = net.nics;
  in.schedule = sr.schedule;
  in.levels = sr.tree.levels;
  in.routing = sr.routing;
  in.explicit_routes = q.routes == "tree";
  in.routes = in.explicit_routes ? tree_routes(net.topo, sr.tree) : net.routes;
  return in;
}

RunPlan plan_run(ParamValues& pv, std::uint64_t seed, const RunInput& in) {
  const FbsRunParams rp = FbsRunParams::from_params(pv);
  const FbsModelParams mp = FbsModelParams::from_params(pv);
  RunPlan p;
  p.slot_bytes = static_cast<std::uint32_t>(mp.slot_bytes);
  p.convergence = worst_convergence(in.schedule, in.topo, in.routes);
  p.needed_guard = static_cast<std::uint32_t>(needed_guard(SkewInputs::from_params(pv), p.convergence.extra()));
  p.guard = rp.guard >= 0 ? static_cast<std::uint32_t>(rp.guard) : p.needed_guard;
  if (p.guard + 1 >= p.slot_bytes) throw UserError(fmt::format("fbs.guard = {} leaves no packet in a slot of {} bytes", p.guard, p.slot_bytes));
  p.packet_len = p.slot_bytes - p.guard - 1;
  p.slot = static_cast<Time>(p.slot_bytes) * LinkTiming::kCp.get(pv);
  p.drift_ppm = mp.drift;
  p.rounds = static_cast<std::uint32_t>(rp.rounds);
  p.sync_rounds = static_cast<std::uint32_t>(rp.sync_rounds);
  p.period = rp.interval ? static_cast<std::uint32_t>(rp.interval) : default_interval(pv, in);
  for (const int n : in.nics) p.nodes.push_back(static_cast<std::uint32_t>(n));
  if (rp.initial_skew * 2 >= p.slot)
    throw UserError(fmt::format("fbs.initial_skew = {} must stay below half a slot ({}): FBS cannot catch a clock a slot ahead",
                                format_time(rp.initial_skew), format_time(p.slot / 2)));
  assign_clocks(pv, seed, p);
  derive_clocks(pv, seed, rp.initial_skew, rp.start, p);
  std::size_t longest = 0;
  for (const auto a : p.nodes)
    for (const auto b : p.nodes) longest = std::max(longest, a == b ? std::size_t{1} : in.routes.vec(static_cast<int>(a), static_cast<int>(b)).size());
  check_plan(p, in, longest);
  if (!pv.has("sim.limit")) {  // the run's own length: the default limit (1 s) is shorter than long runs
    const double slots = static_cast<double>(p.rounds) * p.period + 1;
    const double need = static_cast<double>(rp.start + rp.initial_skew) + slots * static_cast<double>(p.slot) * (1 + p.drift_ppm * 1e-6);
    pv.set("sim.limit", fmt::format("{}ps", static_cast<std::uint64_t>(need * 1.01) + 10 * kMs), "sanvp fbs (rounds x interval x slot)");
  }
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    NodePlan np;
    np.slot_ticks = p.clocks[i].slot_ticks;
    np.packet_len = p.packet_len;
    np.period = p.period;
    np.rounds = p.rounds;
    np.start = p.clocks[i].start;
    np.probe_every = static_cast<std::uint32_t>(rp.probe_every);
    np.sync_rounds = p.sync_rounds;
    np.table = table_of(in.schedule, p.nodes[i]);
    p.plans.push_back(std::move(np));
  }
  return p;
}

RunResult run_fbs(ParamValues& pv, const RunOptions& opt, const RunInput& in) {
  const RunPlan plan = plan_run(pv, opt.seed, in);
  Scenario s;
  s.name = opt.scenario;
  s.topo = in.topo;
  if (in.explicit_routes)
    for (const auto a : plan.nodes)
      for (const auto b : plan.nodes)
        if (a != b) s.routes.push_back(ExplicitRoute{static_cast<int>(a), static_cast<int>(b), in.routes.vec(static_cast<int>(a), static_cast<int>(b)), Origin{}});
  auto outcomes = std::make_shared<std::vector<NodeOutcome>>(plan.nodes.size());
  const std::string image = in.firmware.empty() ? fw::builtin_firmware_image("fbs") : in.firmware;
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    NodeProgram np;
    np.node = static_cast<int>(plan.nodes[i]);
    np.firmware = image;
    np.firmware_given = in.firmware.empty() ? "builtin:fbs" : in.firmware;
    np.host_app = "fbs-loader";
    const NodePlan node_plan = plan.plans[i];
    np.program = [node_plan, outcomes, i](host::Host& h, host::AppResult& r) { run_loader(h, node_plan, (*outcomes)[i], r); };
    s.programs.push_back(std::move(np));
  }
  RunSpec spec = scenario_run_spec(s);
  spec.traffic = [](Network&) {};  // no test traffic: the NICs' own packets only
  auto meter = std::make_shared<SkewMeter>(plan.clocks);
  // The slot clock in the waves: a boundary is drawn when its probe tells it, up to a slot later.
  auto slots = std::make_shared<SlotTrace>(plan.clocks, plan.slot);
  spec.declare_traces = [slots] { slots->declare(); };
  spec.trace_hold = plan.slot;
  spec.probe_sink = [meter, slots](const nic::ProbeRecord& r) {
    meter->add(r);
    slots->add(r);
  };
  spec.scenario_json["fbs"] = plan_json(plan, in);
  spec.results = [&pv, plan, meter, outcomes, &in](nlohmann::json& r) { return fbs_results(pv, plan, in, *meter, *outcomes, r); };
  return run_simulation(pv, opt, spec);
}

}  // namespace sanvp::fbs
