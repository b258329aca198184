#include "hw/base/sim_time.hpp"
#include "platform/sim/run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <memory>
#include <systemc>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/lookahead.hpp"
#include "hw/base/log.hpp"
#include "hw/base/trace.hpp"
#include "platform/sim/hang_report.hpp"
#include "platform/sim/packet_audit.hpp"
#include "platform/sim/packet_stats.hpp"
#include "platform/sim/report.hpp"
#include "platform/sim/runner.hpp"
#include "platform/sim/probe_timeline.hpp"

namespace sanvp {

void RunAgents::trace_firmware(int node, std::ostream* out, const std::string& filter) {
  (void)out, (void)filter;
  throw UserError(fmt::format("--fw-trace: n{} has no NIC in this run", node));
}

std::pair<nic::LanaiCore*, const fw::Image*> RunAgents::firmware(int node) {
  throw UserError(fmt::format("--debug: n{} has no NIC in this run", node));
}

namespace {


// The latency summary (sim/report.hpp) with a histogram.
nlohmann::json latency_stats(std::vector<Time> v) {
  std::sort(v.begin(), v.end());
  nlohmann::json j = latency_summary(v);
  if (v.empty()) return j;
  // Histogram in power-of-two buckets of nanoseconds: [2^k ns, 2^(k+1) ns); bucket 0 also holds
  // everything below 1 ns. Wide-range latencies (contention tails) stay readable.
  auto bucket = [](Time t) { int k = 0; for (Time ns = t / kNs; ns > 1; ns >>= 1) ++k; return k; };
  const int lo = bucket(v.front()), hi = bucket(v.back());
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(hi - lo + 1), 0);
  for (Time t : v) ++counts[static_cast<std::size_t>(bucket(t) - lo)];
  nlohmann::json h = nlohmann::json::array();
  for (int k = lo; k <= hi; ++k)
    h.push_back({{"from_ps", k == 0 ? Time{0} : (Time{1} << k) * kNs}, {"to_ps", (Time{1} << (k + 1)) * kNs},
                 {"count", counts[static_cast<std::size_t>(k - lo)]}});
  j["histogram"] = h;
  return j;
}

// Packets neither delivered nor corrupt at the end, and where each is (the first 100 listed).
nlohmann::json in_flight_json(const std::vector<PacketAudit::InFlight>& v) {
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < v.size() && i < 100; ++i) list.push_back({{"packet", v[i].packet}, {"where", v[i].where}});
  return {{"count", v.size()}, {"packets", list}};
}

std::string fmt_ps(double ps) { return fmt::format("{:.3f}us", ps / 1e6); }

}  // namespace

RunSpec default_scenario(ParamValues& pv) {
  RunSpec s;
  const int ports = static_cast<int>(SwitchParams::kPorts.get(pv));
  s.topology = [ports](Network& net) {
    int sw = net.add_switch(ports);
    for (int p = 0; p < ports; ++p) net.add_node(sw, p);
  };
  s.scenario_json = {{"name", "default"},
                     {"description", fmt::format("one {}-port switch, a test endpoint on every port, uniform random traffic", ports)}};
  return s;
}

namespace {

// sim.* read once, after the network is built (the order parameters are read in is the order
// their errors are reported in).
struct RunLimits : SimParams {
  TrafficConfig traffic;
  Time window_from = 0;  // the measurement window is [window_from, duration)
  Time standstill = 0;   // longest_standstill of the network: no flit moving longer is a hang
};

RunLimits read_limits(ParamValues& pv, Network& net) {
  RunLimits l;
  l.read_params(pv);
  l.traffic = TrafficConfig::from_params(pv, "");
  l.traffic.stop = l.duration;
  l.window_from = static_cast<Time>(std::llround(l.warmup * static_cast<double>(l.duration)));
  // A watchdog no longer than a legitimate wait would call a waiting network hung.
  const Standstill still = longest_standstill(net);
  if (l.watchdog <= still.bound)
    throw UserError(fmt::format("sim.watchdog={} is not longer than the longest a flit can stand still in this network without a hang, "
                                "{} ({}): set sim.watchdog above it", format_time(l.watchdog), format_time(still.bound), still.formula));
  l.standstill = still.bound;
  return l;
}

// Every link direction's flit count at the measurement window's start and end: link utilization
// over the window. Taken by a process at those times (the run loop's steps need not meet them);
// one run per process, so a file-level value like the trace hold below.
struct WindowSnapshots {
  std::vector<std::uint64_t> from, to;
};
WindowSnapshots g_window;

std::vector<std::uint64_t> channel_flits(Network& net) {
  std::vector<std::uint64_t> v;
  for (const auto& c : net.channels()) v.push_back(c->flits());
  return v;
}

// The lookahead limit (hw/base/lookahead.hpp): the end of the current kernel step, but never
// past the next window snapshot (it reads every channel's flit count). Off with --check (the
// work-conservation monitor watches every departure) and with SANVP_NO_LOOKAHEAD=1 (to compare).
struct LookaheadPlan {
  bool on = false;
  Time step_end = 0, snapshot = kNever;
  void apply() const {
    Lookahead::set_limit(on ? std::min(step_end, snapshot) : 0);
    Lookahead::set_observation(snapshot);
  }
};
LookaheadPlan g_lookahead;

void plan_lookahead(bool check, Time first_snapshot) {
  const char* off = std::getenv("SANVP_NO_LOOKAHEAD");
  g_lookahead.on = !check && !(off && std::string(off) == "1");
  g_lookahead.snapshot = first_snapshot;
  g_lookahead.apply();
}

void start_window_snapshots(Network& net, const RunLimits& L) {
  sc_core::sc_spawn_options o;
  sc_core::sc_spawn([&net, from = L.window_from, to = L.duration] {
    sc_core::wait(sc_core::sc_time::from_value(from));
    g_window.from = channel_flits(net);
    g_lookahead.snapshot = to;
    g_lookahead.apply();
    sc_core::wait(sc_core::sc_time::from_value(to - from));
    g_window.to = channel_flits(net);
    g_lookahead.snapshot = kNever;
    g_lookahead.apply();
  }, "sim_window", &o);
}

// Declares the topology and the agents, builds the network and installs its routes.
RunAgents* build_platform(Network& net, ParamValues& pv, const RunOptions& opt, const RunSpec& spec) {
  net.set_check(opt.check);
  spec.topology(net);
  // Agents (hosts with NICs) hold SystemC processes that the kernel keeps referring to; like the
  // network's modules they must outlive the run, so they are released to the process (never
  // destroyed: a SystemC kernel is not restarted).
  RunAgents* agents = spec.agents ? spec.agents(net, pv, opt.seed).release() : nullptr;
  net.build();
  if (spec.routes) spec.routes(net);
  else net.compute_shortest_routes();
  return agents;
}

// RunSpec::trace_hold of the run (one SystemC kernel per process, so one run at a time): the
// tracer's clock is a plain function pointer, hence a file-level value.
Time g_trace_hold = 0;

// The time up to which the VCD may be written: now, less the run's hold.
Time trace_horizon() {
  const Time now = now_ps();
  return now > g_trace_hold ? now - g_trace_hold : 0;
}

// --fw-trace: the trace file lives as long as the run's NICs (the process).
std::unique_ptr<std::ofstream> g_fw_trace;

void start_firmware_trace(RunAgents* agents, const RunOptions& opt) {
  if (opt.fw_trace_node < 0) return;
  if (!agents) throw UserError(fmt::format("--fw-trace: this run has no NICs (n{} runs no firmware)", opt.fw_trace_node));
  std::ostream* out = &std::cerr;
  if (!opt.fw_trace_file.empty()) {
    g_fw_trace = std::make_unique<std::ofstream>(opt.fw_trace_file);
    if (!*g_fw_trace) throw UserError(fmt::format("--fw-trace-file: cannot create '{}'", opt.fw_trace_file));
    out = g_fw_trace.get();
  }
  agents->trace_firmware(opt.fw_trace_node, out, opt.fw_trace_filter);
}

// A trace that could not be written completely is an error, not a silently short file.
void finish_firmware_trace(const RunOptions& opt) {
  if (!g_fw_trace) return;
  g_fw_trace->flush();
  if (!*g_fw_trace) throw UserError(fmt::format("--fw-trace-file: writing '{}' failed", opt.fw_trace_file));
}

void open_waves(Network& net, RunAgents* agents, const RunOptions& opt, const RunSpec& spec) {
  if (opt.vcd.empty()) return;
  Tracer& tr = Tracer::global();
  tr.configure(opt.trace, opt.trace_from, opt.trace_to);
  if (!tr.open(opt.vcd)) throw UserError(fmt::format("--vcd: cannot create '{}'", opt.vcd));
  g_trace_hold = spec.trace_hold;
  tr.set_now_fn(&trace_horizon);
  net.declare_traces();
  if (agents) agents->declare_traces();
  if (spec.declare_traces) spec.declare_traces();
  tr.check_patterns();
}

// --timeline: watches the network (and the agents' NICs) from before the run.
std::unique_ptr<Timeline> start_timeline(Network& net, RunAgents* agents, const RunOptions& opt) {
  const TimelineOptions& t = opt.timeline;
  if (t.file.empty()) return nullptr;
  check_output_path(t.file, "--timeline");
  TimeWindow w{opt.trace_from, opt.trace_to};
  if (!t.window.empty()) w = parse_time_window(t.window, "--timeline-window");
  if (t.firmware && !agents) throw UserError("--timeline-fw: this run has no NICs");
  auto tl = std::make_unique<Timeline>(w.from, w.to);
  tl->observe_network(net);
  if (agents) agents->attach_timeline(*tl, t.firmware);
  return tl;
}

// --probes and the command's own probe sink (RunSpec::probe_sink) get every NIC probe.
void attach_probes(RunAgents* agents, const RunOptions& opt, const RunSpec& spec, ProbeTimeline& probes) {
  if (!agents || (opt.probes.empty() && !spec.probe_sink)) return;
  nic::ProbeSink file = opt.probes.empty() ? nic::ProbeSink{} : probes.sink();
  agents->attach_probes([file, extra = spec.probe_sink](const nic::ProbeRecord& r) {
    if (file) file(r);
    if (extra) extra(r);
  });
}

void write_timeline(const Report& rep, const Timeline* tl, const RunOptions& opt) {
  if (!tl) return;
  const std::string command = opt.timeline.command.empty() ? "run" : opt.timeline.command;
  rep.write({opt.timeline.file, "--timeline"}, tl->text(tl->other_data(command, opt.scenario, opt.seed)));
}

std::uint64_t in_flight(Network& net) { return net.packets().open(); }

// How the run loop ended.
struct LoopEnd {
  RunStatus status = RunStatus::Completed;
  bool apps_stalled = false;  // Hung because host applications made no progress
  std::string fault;          // the model error or firmware fault that stopped it
  HangReport hang;
  Time still_for = 0;         // Hung: how long no flit had moved
};

// Runs in steps of a quarter watchdog until the traffic is done and drained and the host
// applications (if any) have finished, or until a fault, a hang, the drain limit or sim.limit.
// Host applications: no flit moving and no NIC or host doing anything for sim.watchdog while one
// is unfinished is a stall. The kernel is elaborated first, then `on_start` runs (RunSpec).
LoopEnd run_loop(Network& net, RunAgents* agents, const RunLimits& L, bool check, const std::function<void(Network&)>& on_start) {
  LoopEnd out;
  out.fault = elaborate(agents ? Catch::AnyError : Catch::ModelErrors);
  if (!out.fault.empty()) { out.status = RunStatus::Fault; return out; }
  if (on_start) on_start(net);
  std::uint64_t last_hops = ~0ull, last_agent = agents ? agents->progress() : 0;
  Time last_progress = 0, last_any = 0;
  const Time end_limit = L.duration + L.drain;
  const std::function<void()> sweep = [&net] { net.monitor()->sweep(); };
  while (true) {
    const Time now = now_ps();
    const bool pending = agents && !agents->finished();
    Time target = now < L.duration ? L.duration : end_limit;
    if (pending) target = L.limit;  // steps are watchdog/4 anyway; the limit is met exactly
    const Time step = std::max<Time>(1, std::min(L.watchdog / 4 ? L.watchdog / 4 : 1, target > now ? target - now : 1));
    g_lookahead.step_end = now + step;  // the state read after the step is the per-flit model's
    g_lookahead.apply();
    // Without agents an error that is not a model error is a bug and escapes; with them it comes
    // from a host application or the NIC model and stops the run.
    out.fault = advance(step, agents ? Catch::AnyError : Catch::ModelErrors, check ? sweep : nullptr);
    Tracer::global().flush(trace_horizon());
    const Time t = now_ps();
    net.packets().release(t);
    if (agents && out.fault.empty()) out.fault = agents->fault();
    if (!out.fault.empty()) { out.status = RunStatus::Fault; break; }
    const std::uint64_t hops = net.flit_hops();
    const std::uint64_t flying = in_flight(net);
    const bool still = agents && !agents->finished();
    if (hops != last_hops) { last_hops = hops; last_progress = t; last_any = t; }
    if (agents && agents->progress() != last_agent) { last_agent = agents->progress(); last_any = t; }
    if (t >= L.duration && flying == 0 && !still) break;
    if ((flying > 0 && t - last_progress >= L.watchdog) || (still && t - last_any >= L.watchdog && !agents->waiting_on_time())) {
      out.status = RunStatus::Hung;
      out.apps_stalled = !(flying > 0 && t - last_progress >= L.watchdog);
      out.hang = analyze_hang(net, t);
      out.still_for = t - last_progress;
      break;
    }
    if (t >= end_limit && !still) {
      // The drain ended before the watchdog could: a standstill longer than any wait is a hang.
      const bool stuck = flying > 0 && t - last_progress > L.standstill;
      out.status = stuck ? RunStatus::Hung : RunStatus::NotDrained;
      if (stuck) out.hang = analyze_hang(net, t), out.still_for = t - last_progress;
      break;
    }
    if (still && t >= L.limit) { out.status = RunStatus::Limit; break; }
  }
  return out;
}

// Statistics cover [0, end]: the traffic window, extended to the last delivery when the drain
// ran past it (not to the watchdog's polling step); a run that did not complete ends when it stopped.
Time statistics_end(const PacketStatistics& st, RunAgents* agents, RunStatus status, Time stopped, Time duration) {
  Time end = std::min(stopped, duration);
  if (st.last_tail() != kNever) end = std::max(end, st.last_tail());
  if (agents) end = std::max(end, agents->finished_at());
  if (status != RunStatus::Completed) end = stopped;
  return end;
}

// The run's packet statistics; the table releases every final packet into them as the run goes,
// so its memory stays proportional to the packets in flight.
std::unique_ptr<PacketStatistics> start_packet_statistics(Network& net, const RunLimits& L, bool keep_records) {
  const int endpoints = net.traffic_endpoints();
  const Time cp = net.channels().empty() ? 0 : net.channels().front()->timing().cp;
  auto st = std::make_unique<PacketStatistics>(L.window_from, L.duration, static_cast<std::size_t>(net.nodes()), endpoints, cp,
                                               L.saturation_margin);
  PacketStatistics* p = st.get();
  if (!keep_records) net.packets().set_release([p](const PacketRecord& r, Time now) { p->add_released(r, now); });
  return st;
}

double mbps(std::uint64_t bytes, double nodes, double seconds) { return nodes > 0 && seconds > 0 ? static_cast<double>(bytes) / nodes / seconds / 1e6 : 0.0; }

// Flits per character period per node: the fraction of a link's bandwidth, comparable to traffic.load.
double flit_rate(std::uint64_t flits, double nodes, const Measurement& m) {
  return nodes > 0 && m.to > m.from && m.cp ? static_cast<double>(flits) * static_cast<double>(m.cp) / static_cast<double>(m.to - m.from) / nodes : 0.0;
}

double round6(double x) { return std::round(x * 1e6) / 1e6; }

const char* const kSaturationRule =
    "saturated when the packets delivered in the window fall short of the n created in it, or the source queues grow over it, "
    "by more than max(sim.saturation_margin * n, 3 * sqrt(n)) packets";

nlohmann::json measurement_json(const Measurement& m, double warmup, std::uint64_t latency_samples) {
  const double nodes = m.nodes;
  auto side = [&](const Measurement::Count& c) {
    return nlohmann::json{{"packets", c.packets}, {"payload_bytes", c.payload}, {"flits", c.wire},
                          {"MBps_per_node", round6(mbps(c.payload, nodes, m.seconds()))},
                          {"flits_per_cp_per_node", round6(flit_rate(c.wire, nodes, m))}};
  };
  return {{"warmup_fraction", warmup}, {"window_from_ps", m.from}, {"window_to_ps", m.to}, {"nodes", m.nodes}, {"cp_ps", m.cp},
          {"offered", side(m.offered)}, {"accepted", side(m.accepted)},
          {"source_backlog_packets", {{"window_start", m.backlog_from}, {"window_end", m.backlog_to},
                                      {"growth", static_cast<std::int64_t>(m.backlog_to) - static_cast<std::int64_t>(m.backlog_from)}}},
          {"latency_samples", latency_samples}, {"saturated", m.saturated},
          {"saturation_tolerance_packets", round6(m.tolerance)}, {"saturation_margin", m.margin}, {"saturation_rule", kSaturationRule}};
}

// utilization: over the whole run [0, end]; window_utilization: over the measurement window (from
// the flit counts taken at its ends; a run that stopped inside it ends the window there).
nlohmann::json links_json(Network& net, Time end, const Measurement& m) {
  nlohmann::json links = nlohmann::json::array();
  const bool window = net.packets().size() > 0 && g_window.from.size() == net.channels().size() && m.to > m.from;
  const std::vector<std::uint64_t> to = g_window.to.size() == net.channels().size() ? g_window.to : channel_flits(net);
  std::size_t i = 0;
  for (const auto& c : net.channels()) {
    const double cp = static_cast<double>(c->timing().cp);
    const double util = end ? static_cast<double>(c->flits()) * cp / static_cast<double>(end) : 0.0;
    nlohmann::json l{{"link", c->path()}, {"flits", c->flits()}, {"control_symbols", c->controls()}, {"utilization", round6(util)}};
    if (window) l["window_utilization"] = round6(static_cast<double>(to[i] - g_window.from[i]) * cp / static_cast<double>(m.to - m.from));
    links.push_back(l);
    ++i;
  }
  return links;
}

// The fault configuration and what each faulty link direction did (only with faults on).
nlohmann::json faults_json(Network& net, const PacketCounts& c) {
  nlohmann::json links = nlohmann::json::array();
  LinkFaults::Stats sum;
  for (const auto& ch : net.channels()) {
    const LinkFaults* f = ch->faults();
    if (!f) continue;
    const auto& k = f->config();
    const auto& st = f->stats();
    nlohmann::json cuts = nlohmann::json::array();
    for (const auto& x : k.cut_list) cuts.push_back({{"from_ps", x.from}, {"to_ps", x.to}});
    links.push_back({{"link", ch->path()},
                     {"config", {{"drop", k.drop}, {"corrupt", k.corrupt}, {"truncate", k.truncate}, {"cuts", cuts}}},
                     {"flits", st.flits}, {"worms", st.worms},
                     {"flits_dropped", st.dropped}, {"drop_eligible", st.drop_eligible},
                     {"flits_corrupted", st.corrupted}, {"corrupt_eligible", st.corrupt_eligible},
                     {"worms_truncated", st.truncated}, {"flits_truncated", st.truncated_flits},
                     {"flits_cut", st.cut_flits}, {"worms_ended_by_cut", st.cut_worms}, {"worms_lost", st.lost_packets}});
    sum.flits += st.flits; sum.dropped += st.dropped; sum.corrupted += st.corrupted; sum.truncated += st.truncated;
    sum.cut_flits += st.cut_flits; sum.lost_packets += st.lost_packets;
  }
  std::uint64_t consumed = 0;
  for (int s = 0; s < net.switches(); ++s) consumed += net.sw(s).consumed_worms();
  return {{"links", links},
          {"total", {{"flits_dropped", sum.dropped}, {"flits_corrupted", sum.corrupted}, {"worms_truncated", sum.truncated},
                     {"flits_cut", sum.cut_flits}, {"worms_lost", sum.lost_packets}, {"worms_consumed_by_switches", consumed}}},
          {"packets", {{"faulted", c.faulted}, {"faulted_corrupt", c.faulted_corrupt}, {"faulted_delivered_intact", c.faulted_delivered},
                       {"ended_in_network", c.dropped}}}};
}

// Switches that consumed worms (Myrinet: bad route byte or runt), only when some did.
nlohmann::json switches_json(Network& net) {
  nlohmann::json sw = nlohmann::json::array();
  for (int s = 0; s < net.switches(); ++s) {
    const Switch& x = net.sw(s);
    if (x.consumed_worms() == 0) continue;
    sw.push_back({{"switch", fmt::format("sw{}", s)}, {"worms_consumed", x.consumed_worms()},
                  {"bad_route", x.bad_route_worms()}, {"runts", x.runt_worms()}});
  }
  return sw;
}

// Per node, whole run: packets sent and received; over the measurement window: offered (created at
// this source) and accepted (delivered to this sink) payload, and its source queue at both ends.
nlohmann::json nodes_json(Network& net, const Measurement& m) {
  nlohmann::json nodes = nlohmann::json::array();
  for (int n = 0; n < net.nodes(); ++n) {
    if (net.is_external(n)) continue;  // hosts with NICs: results.nics and results.apps
    const auto& st = net.node(n).stats();
    const auto k = static_cast<std::size_t>(n);
    nodes.push_back({{"node", fmt::format("n{}", n)}, {"sent_packets", st.sent_packets}, {"recv_packets", st.recv_packets},
                     {"recv_bytes", st.recv_bytes}, {"errors", st.errors}, {"source_stalled_ps", st.stalled_time},
                     {"offered_MBps", round6(mbps(m.node_offered[k].payload, 1, m.seconds()))},
                     {"accepted_MBps", round6(mbps(m.node_accepted[k].payload, 1, m.seconds()))},
                     {"source_backlog_start", m.node_backlog_from[k]}, {"source_backlog_end", m.node_backlog_to[k]}});
  }
  return nodes;
}

// results: packets, latencies, links, nodes, what was in flight, the check and the hang.
nlohmann::json fabric_results(Network& net, const PacketCounts& c, Time end, const Measurement& m,
                              const std::vector<PacketAudit::InFlight>& flying, bool check, const LoopEnd& loop) {
  nlohmann::json r;
  r["packets_created"] = net.packets().size();
  r["packets_delivered"] = c.delivered;
  r["packets_corrupt"] = c.corrupt;
  r["packets_duplicated"] = c.dup;
  r["payload_bytes_delivered"] = c.payload_bytes;
  r["latency"] = latency_stats(c.lat);
  r["network_latency"] = latency_stats(c.net_lat);
  r["latency"]["scope"] = r["network_latency"]["scope"] = "packets created in the measurement window";
  r["flit_hops"] = net.flit_hops();
  r["in_flight"] = in_flight_json(flying);
  if (check) r["check"] = {{"work_conservation", "passed"}, {"checks", net.monitor()->checks()}};
  r["links"] = links_json(net, end, m);
  r["nodes"] = nodes_json(net, m);
  // Present only when used, so runs without faults report exactly what they did before.
  if (net.faults_on()) r["faults"] = faults_json(net, c);
  if (const nlohmann::json sw = switches_json(net); !sw.empty()) r["switches"] = sw;
  if (loop.status == RunStatus::Hung) {
    r["hang"] = loop.hang.json;
    r["hang"]["still_for_ps"] = loop.still_for;
    if (!loop.hang.cycle.empty()) r["hang"]["cycle_text"] = loop.hang.cycle;
  }
  return r;
}

void print_latency(const char* label, const nlohmann::json& L) {
  fmt::print("{} mean {} p50 {} p99 {} max {}\n", label, fmt_ps(L["mean_ps"].get<double>()), fmt_ps(L["p50_ps"].get<double>()),
             fmt_ps(L["p99_ps"].get<double>()), fmt_ps(L["max_ps"].get<double>()));
}

void print_histogram(const nlohmann::json& L) {
  std::uint64_t peak = 0;
  for (const auto& b : L["histogram"]) peak = std::max(peak, b["count"].get<std::uint64_t>());
  fmt::print("latency histogram created->tail:\n");
  for (const auto& b : L["histogram"]) {
    const auto c = b["count"].get<std::uint64_t>();
    fmt::print("  [{:>10}, {:>10}) {:>8} {}\n", format_time(b["from_ps"].get<Time>()), format_time(b["to_ps"].get<Time>()), c,
               std::string(peak ? static_cast<std::size_t>((c * 40 + peak - 1) / peak) : 0, '#'));
  }
}

void print_links(const nlohmann::json& links) {
  const bool window = !links.empty() && links.front().contains("window_utilization");
  fmt::print("link utilization ({}):\n", window ? "over the measurement window" : "over the run");
  int col = 0;
  for (const auto& l : links) {
    fmt::print("  {:<14} {:6.3f}", l["link"].get<std::string>(), l[window ? "window_utilization" : "utilization"].get<double>());
    if (++col % 4 == 0) fmt::print("\n");
  }
  if (col % 4) fmt::print("\n");
}

// The measurement window, offered and accepted load, the source queues and the verdict.
void print_measurement(const nlohmann::json& M) {
  const auto& o = M["offered"];
  const auto& a = M["accepted"];
  const auto& b = M["source_backlog_packets"];
  fmt::print("measurement window [{}, {}) after a warm-up of sim.warmup={} of the traffic; statistics below cover packets created in it\n",
             format_time(M["window_from_ps"].get<Time>()), format_time(M["window_to_ps"].get<Time>()), M["warmup_fraction"].get<double>());
  fmt::print("per node: offered {:.3f} MB/s ({:.3f} flits/cp), accepted {:.3f} MB/s ({:.3f} flits/cp); "
             "source queues {} -> {} packets over the window\n",
             o["MBps_per_node"].get<double>(), o["flits_per_cp_per_node"].get<double>(), a["MBps_per_node"].get<double>(),
             a["flits_per_cp_per_node"].get<double>(), b["window_start"].get<std::uint64_t>(), b["window_end"].get<std::uint64_t>());
  fmt::print("{}: {} packets created, {} delivered in the window, tolerance {:.1f} ({})\n",
             M["saturated"].get<bool>() ? "SATURATED" : "not saturated", o["packets"].get<std::uint64_t>(),
             a["packets"].get<std::uint64_t>(), M["saturation_tolerance_packets"].get<double>(), M["saturation_rule"].get<std::string>());
}

// The printed summary of a run.
void print_summary(Network& net, const RunOptions& opt, const nlohmann::json& doc, const PacketCounts& c, Time duration,
                   const std::string& agents_summary, double wall) {
  const nlohmann::json& r = doc["results"];
  fmt::print("sanvp {} | scenario {} | seed {}\n", SANVP_VERSION, opt.scenario, opt.seed);
  const int endpoints = net.traffic_endpoints();  // the other nodes are NICs run by host applications
  const std::string span = endpoints ? fmt::format("{} traffic + drain", format_time(duration)) : "until the host applications finished";
  fmt::print("simulated {} ({}), {} switch(es), {} nodes, status: {}\n", format_time(doc["simulated_ps"].get<Time>()), span,
             net.switches(), net.nodes(), doc["status"].get<std::string>());
  if (endpoints)
    fmt::print("packets: {} created, {} delivered intact, {} corrupt, {} duplicated; payload {} bytes\n", net.packets().size(),
               c.delivered, c.corrupt, c.dup, c.payload_bytes);
  else
    fmt::print("packets: no test traffic (every node is a NIC: its packets are counted per NIC and per host application below)\n");
  if (r.contains("measurement")) print_measurement(r["measurement"]);
  if (!c.lat.empty()) {
    fmt::print("latency over {} packets created in the window:\n", c.lat.size());
    print_latency("latency created->tail:", r["latency"]);
    print_histogram(r["latency"]);
    print_latency("latency inject->tail: ", r["network_latency"]);
  }
  print_links(r["links"]);
  if (r.contains("faults")) {
    const auto& t = r["faults"]["total"];
    fmt::print("link faults: {} flits dropped, {} corrupted, {} worms truncated, {} flits lost to cuts, {} worms consumed by switches; "
               "{} packets faulted ({} found bad at a sink, {} ended in the network)\n",
               t["flits_dropped"].get<std::uint64_t>(), t["flits_corrupted"].get<std::uint64_t>(), t["worms_truncated"].get<std::uint64_t>(),
               t["flits_cut"].get<std::uint64_t>(), t["worms_consumed_by_switches"].get<std::uint64_t>(), c.faulted, c.faulted_corrupt,
               c.dropped);
  }
  fmt::print("{}", agents_summary);
  fmt::print("flit-hops: {} in {:.2f} s wall ({:.2f} M flit-hops/s)\n", net.flit_hops(), wall,
             wall > 0 ? static_cast<double>(net.flit_hops()) / wall / 1e6 : 0.0);
  if (!opt.report.empty()) fmt::print("report: {}\n", opt.report);
  if (!opt.vcd.empty()) fmt::print("waves: {}\n", opt.vcd);
}

void report_hang(Report& rep, const HangReport& hang, Time still_for, Time end) {
  rep.error(fmt::format("network hung: packets in flight but no flit moved for {} (at {})", format_time(still_for), format_time(end)));
  fmt::print(stderr, "blocked worms ({}):\n", hang.worms.size());
  for (const auto& l : hang.worms) fmt::print(stderr, "  {}\n", l);
  if (!hang.cycle.empty()) {
    fmt::print(stderr, "deadlock: dependency cycle of {} worms:\n", hang.cycle.size());
    for (const auto& l : hang.cycle) fmt::print(stderr, "  {}\n", l);
  } else {
    fmt::print(stderr, "{}\n", hang.no_cycle_reason);
  }
}

// Why the run failed, on stderr, and its exit code; `agents_state` is what every NIC and
// application was doing (empty without agents or after a completed run).
void report_outcome(Report& rep, Network& net, RunAgents* agents, const LoopEnd& loop, const RunLimits& L, Time stopped, Time end,
                    const std::string& agents_state) {
  if (loop.status == RunStatus::Fault) {
    if (agents) rep.error(fmt::format("firmware fault at {}: {}", format_time(stopped), loop.fault));
    else rep.error(loop.fault);
    fmt::print(stderr, "{}", agents ? agents_state : "");
  } else if (loop.status == RunStatus::Limit) {
    rep.error(fmt::format("host applications had not finished at sim.limit={}", format_time(L.limit)));
    fmt::print(stderr, "{}", agents_state);
  } else if (loop.apps_stalled) {
    rep.error(fmt::format("host applications stalled: no flit moved and no NIC or host did anything for {} (at {})",
                          format_time(L.watchdog), format_time(end)));
    fmt::print(stderr, "{}", agents_state);
  } else if (loop.status == RunStatus::Hung) {
    report_hang(rep, loop.hang, loop.still_for, end);
  } else if (loop.status == RunStatus::NotDrained) {
    rep.warning(fmt::format("{} packets still in flight after sim.drain={}", in_flight(net), format_time(L.drain)));
  }
}

}  // namespace

RunResult run_simulation(ParamValues& pv, const RunOptions& opt, const RunSpec& spec) {
  const auto wall0 = std::chrono::steady_clock::now();
  Network net(pv, opt.seed);
  RunAgents* agents = build_platform(net, pv, opt, spec);
  const RunLimits L = read_limits(pv, net);
  pv.check_all_used();
  log::info("built {} switches, {} nodes, {} link directions; seed {}", net.switches(), net.nodes(), net.channels().size(), opt.seed);
  open_waves(net, agents, opt, spec);
  start_firmware_trace(agents, opt);
  if (opt.attach_tools) opt.attach_tools(agents);
  const std::unique_ptr<Timeline> timeline = start_timeline(net, agents, opt);
  ProbeTimeline probes;
  attach_probes(agents, opt, spec, probes);
  if (spec.traffic) spec.traffic(net);
  else net.start_traffic(L.traffic);
  if (agents) agents->start(net);
  plan_lookahead(opt.check, L.window_from);
  start_window_snapshots(net, L);
  const std::unique_ptr<PacketStatistics> stats = start_packet_statistics(net, L, spec.keep_packet_records);

  const LoopEnd loop = run_loop(net, agents, L, opt.check, spec.on_start);
  Lookahead::set_limit(0);
  const Time stopped = now_ps();
  stats->finish(net.packets(), stopped);
  const Time end = statistics_end(*stats, agents, loop.status, stopped, L.duration);
  std::string waves_error;  // a wave file that cannot be finished (disk full, vcd2fst failed) must not cost the report
  const std::string waves_warning = Tracer::global().empty_window_warning(end);
  try { Tracer::global().close(end); } catch (const IoError& e) { waves_error = e.what(); }
  finish_firmware_trace(opt);
  static const char* const kStatus[] = {"completed", "not-drained", "hung", "fault", "limit"};
  // Without agents a stop on an exception is a model error or a failed check, not a firmware fault.
  const char* status_text = loop.status == RunStatus::Fault && !agents ? "error" : kStatus[static_cast<int>(loop.status)];
  log::info("simulation stopped at {}: {}", format_time(stopped), status_text);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  if (spec.on_finish) spec.on_finish(net);
  // Every packet delivered, dropped with a reason, or somewhere in the network (a lost one throws).
  PacketAudit audit(net.packets());
  audit_network(net, stopped, audit);
  if (agents) agents->audit(audit, stopped);
  const std::vector<PacketAudit::InFlight> flying_now = audit.finish(stopped);

  const Measurement& window = stats->window();
  const PacketCounts& counts = stats->counts();
  Report rep;
  rep.begin(opt.seed, spec.scenario_json, opt.scenario);
  rep.doc()["params"] = pv.effective();
  rep.doc()["topology"] = net.topology_json();
  rep.set_status(status_text);
  rep.doc()["simulated_ps"] = end;
  nlohmann::json r = fabric_results(net, counts, end, window, flying_now, opt.check, loop);
  // Test traffic only: a run of host applications alone has nothing to measure.
  if (net.packets().size() > 0) r["measurement"] = measurement_json(window, L.warmup, counts.lat.size());
  std::string agents_summary, agents_state;
  if (agents) {
    agents_summary = agents->results(r);
    if (loop.status != RunStatus::Completed && loop.status != RunStatus::NotDrained) {
      agents_state = agents->describe();
      r["nic_state"] = agents_state;
    }
  }
  if (!loop.fault.empty()) r[agents ? "fault" : "error"] = loop.fault;
  if (!opt.probes.empty()) r["probes"] = probes.summary();
  if (spec.results) agents_summary += spec.results(r);
  rep.results() = std::move(r);

  rep.write_json({opt.report, "--report"}, rep.doc(), 2);  // whole or not at all
  if (!waves_error.empty()) rep.error(waves_error);
  rep.write({opt.probes, "--probes"}, probes.text_for(opt.probes));
  write_timeline(rep, timeline.get(), opt);
  if (opt.print_summary) print_summary(net, opt, rep.doc(), counts, L.duration, agents_summary, wall);
  report_outcome(rep, net, agents, loop, L, stopped, end, agents_state);
  if (!waves_warning.empty()) rep.warning(waves_warning);
  if (agents && agents->errors()) rep.error("host applications received bad messages (results.apps in the report)");
  // A packet a link fault touched may arrive bad: that is the fault's effect, not a model error.
  if (counts.errors() || counts.dup)
    rep.error(fmt::format("scoreboard: {} corrupt, {} duplicated packets", counts.errors(), counts.dup));
  RunResult res;
  res.status = loop.status;
  res.report = rep.doc();
  res.exit_code = opt.end_tools ? opt.end_tools(rep.exit_code()) : rep.exit_code();
  return res;
}

}  // namespace sanvp
