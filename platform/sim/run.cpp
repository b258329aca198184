#include "platform/core/sim_time.hpp"
#include "platform/sim/run.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <systemc>

#include "platform/core/error.hpp"
#include "platform/core/io.hpp"
#include "platform/core/log.hpp"
#include "platform/core/trace.hpp"
#include "platform/sim/hang_report.hpp"
#include "platform/sim/packet_audit.hpp"

namespace sanvp {

namespace {


nlohmann::json latency_stats(std::vector<Time> v) {
  nlohmann::json j;
  j["count"] = v.size();
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  long double sum = 0;
  for (Time t : v) sum += static_cast<long double>(t);
  auto pct = [&](double p) {  // nearest-rank percentile
    std::size_t rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
  };
  j["mean_ps"] = static_cast<double>(sum / v.size());
  j["min_ps"] = v.front();
  j["p50_ps"] = pct(50);
  j["p99_ps"] = pct(99);
  j["max_ps"] = v.back();
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
  const int ports = static_cast<int>(pv.integer("", "switch", "ports"));
  s.topology = [ports](Network& net) {
    int sw = net.add_switch(ports);
    for (int p = 0; p < ports; ++p) net.add_node(sw, p);
  };
  s.scenario_json = {{"name", "default"},
                     {"description", fmt::format("one {}-port switch, a test endpoint on every port, uniform random traffic", ports)}};
  return s;
}

RunResult run_simulation(ParamValues& pv, const RunOptions& opt, const RunSpec& spec) {
  const auto wall0 = std::chrono::steady_clock::now();
  Network net(pv, opt.seed);
  net.set_check(opt.check);
  spec.topology(net);
  // Agents (hosts with NICs) hold SystemC processes that the kernel keeps referring to; like the
  // network's modules they must outlive the run, so they are released to the process (never
  // destroyed: a SystemC kernel is not restarted).
  RunAgents* agents = spec.agents ? spec.agents(net, pv, opt.seed).release() : nullptr;
  net.build();
  if (spec.routes) spec.routes(net);
  else net.compute_shortest_routes();
  const Time duration = pv.time("", "sim", "duration");
  const Time drain = pv.time("", "sim", "drain");
  const Time watchdog = pv.time("", "sim", "watchdog");
  if (watchdog == 0) throw UserError("sim.watchdog must be greater than 0");
  const Time limit = pv.time("", "sim", "limit");
  TrafficConfig traffic = TrafficConfig::from_params(pv, "");
  traffic.stop = duration;
  pv.check_all_used();
  log::info("built {} switches, {} nodes, {} link directions; seed {}", net.switches(), net.nodes(), net.channels().size(), opt.seed);

  Tracer& tr = Tracer::global();
  if (!opt.vcd.empty()) {
    tr.configure(opt.trace, opt.trace_from, opt.trace_to);
    if (!tr.open(opt.vcd)) throw UserError(fmt::format("--vcd: cannot create '{}'", opt.vcd));
    tr.set_now_fn(&sanvp::now_ps);
    net.declare_traces();
    if (agents) agents->declare_traces();
  }
  if (spec.traffic) spec.traffic(net);
  else net.start_traffic(traffic);
  if (agents) agents->start(net);

  auto in_flight = [&]() {
    std::uint64_t done = 0;
    for (const auto& r : net.packets().all()) if (r.tail_arrival != kNever) ++done;
    return net.packets().size() - done;
  };

  RunResult res;
  std::uint64_t last_hops = ~0ull;
  Time last_progress = 0;
  const Time end_limit = duration + drain;
  HangReport hang;
  // Host applications: the run also waits for them (up to sim.limit); no flit moving and no NIC
  // or host doing anything for sim.watchdog while one is unfinished is a stall.
  std::uint64_t last_agent = agents ? agents->progress() : 0;
  Time last_any = 0;
  bool apps_stalled = false;
  std::string fault;
  while (true) {
    const Time now = now_ps();
    const bool pending = agents && !agents->finished();
    Time target = now < duration ? duration : end_limit;
    if (pending) target = limit;  // steps are watchdog/4 anyway; the limit is met exactly
    const Time step = std::max<Time>(1, std::min(watchdog / 4 ? watchdog / 4 : 1, target > now ? target - now : 1));
    try {
      sc_core::sc_start(sc_core::sc_time::from_value(step));
      if (opt.check) net.monitor()->sweep();
    } catch (const SimError& e) {  // a model error or a failed check: reported with the run's state
      fault = e.what();
    } catch (const sc_core::sc_report& e) {  // the same thrown inside a process (SystemC wraps it)
      fault = e.get_msg();
    } catch (const std::exception& e) {  // an error inside a host application or the NIC model
      if (!agents) throw;
      fault = e.what();
    }
    tr.flush(now_ps());
    const Time t = now_ps();
    if (agents && fault.empty()) fault = agents->fault();
    if (!fault.empty()) { res.status = RunStatus::Fault; break; }
    const std::uint64_t hops = net.flit_hops();
    const std::uint64_t flying = in_flight();
    const bool still = agents && !agents->finished();
    if (hops != last_hops) { last_hops = hops; last_progress = t; last_any = t; }
    if (agents && agents->progress() != last_agent) { last_agent = agents->progress(); last_any = t; }
    if (t >= duration && flying == 0 && !still) break;
    if (flying > 0 && t - last_progress >= watchdog) {
      res.status = RunStatus::Hung;
      hang = analyze_hang(net, t);
      break;
    }
    if (still && t - last_any >= watchdog) {
      res.status = RunStatus::Hung;
      apps_stalled = true;
      hang = analyze_hang(net, t);
      break;
    }
    if (t >= end_limit && !still) { res.status = RunStatus::NotDrained; break; }
    if (still && t >= limit) { res.status = RunStatus::Limit; break; }
  }
  const Time stopped = now_ps();
  // Statistics cover [0, end]: the traffic window, extended to the last delivery when the drain
  // ran past it (not to the watchdog's polling step).
  Time end = std::min(stopped, duration);
  for (const auto& r : net.packets().all()) if (r.tail_arrival != kNever) end = std::max(end, r.tail_arrival);
  if (agents) end = std::max(end, agents->finished_at());
  if (res.status != RunStatus::Completed) end = stopped;
  tr.close(end);
  static const char* const kStatus[] = {"completed", "not-drained", "hung", "fault", "limit"};
  // Without agents a stop on an exception is a model error or a failed check, not a firmware fault.
  const char* status_text = res.status == RunStatus::Fault && !agents ? "error" : kStatus[static_cast<int>(res.status)];
  log::info("simulation stopped at {}: {}", format_time(stopped), status_text);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  if (spec.on_finish) spec.on_finish(net);
  // Every packet delivered, dropped with a reason, or somewhere in the network (a lost one throws).
  PacketAudit audit(net.packets());
  audit_network(net, stopped, audit);
  if (agents) agents->audit(audit, stopped);
  const std::vector<PacketAudit::InFlight> flying_now = audit.finish(stopped);

  // Statistics
  std::vector<Time> lat, net_lat;
  std::uint64_t delivered = 0, corrupt = 0, dup = 0, payload_bytes = 0;
  for (const auto& r : net.packets().all()) {
    if (r.corrupt) ++corrupt;
    if (r.deliveries > 1) ++dup;
    if (r.deliveries >= 1) {
      ++delivered;
      payload_bytes += r.payload;
      lat.push_back(r.tail_arrival - r.created);
      net_lat.push_back(r.tail_arrival - r.injected);
    }
  }
  nlohmann::json rep;
  rep["sanvp"] = SANVP_VERSION;
  rep["seed"] = opt.seed;
  rep["scenario"] = spec.scenario_json;
  rep["scenario"]["name"] = opt.scenario;
  rep["params"] = pv.effective();
  rep["topology"] = net.topology_json();
  rep["status"] = status_text;
  rep["simulated_ps"] = end;
  nlohmann::json r;
  r["packets_created"] = net.packets().size();
  r["packets_delivered"] = delivered;
  r["packets_corrupt"] = corrupt;
  r["packets_duplicated"] = dup;
  r["payload_bytes_delivered"] = payload_bytes;
  r["latency"] = latency_stats(lat);
  r["network_latency"] = latency_stats(net_lat);
  r["flit_hops"] = net.flit_hops();
  r["in_flight"] = in_flight_json(flying_now);
  if (opt.check) r["check"] = {{"work_conservation", "passed"}, {"checks", net.monitor()->checks()}};
  nlohmann::json links = nlohmann::json::array();
  for (const auto& c : net.channels()) {
    const double util = end ? static_cast<double>(c->flits()) * static_cast<double>(c->timing().cp) / static_cast<double>(end) : 0.0;
    links.push_back({{"link", c->path()}, {"flits", c->flits()}, {"control_symbols", c->controls()},
                     {"utilization", std::round(util * 1e6) / 1e6}});
  }
  r["links"] = links;
  nlohmann::json nodes = nlohmann::json::array();
  for (int n = 0; n < net.nodes(); ++n) {
    if (net.is_external(n)) continue;  // hosts with NICs: results.nics and results.apps
    const auto& st = net.node(n).stats();
    nodes.push_back({{"node", fmt::format("n{}", n)}, {"sent_packets", st.sent_packets}, {"recv_packets", st.recv_packets},
                     {"recv_bytes", st.recv_bytes}, {"errors", st.errors}, {"source_stalled_ps", st.stalled_time},
                     {"throughput_MBps", end ? static_cast<double>(st.recv_bytes) / (static_cast<double>(end) * 1e-12) / 1e6 : 0.0}});
  }
  r["nodes"] = nodes;
  if (res.status == RunStatus::Hung) {
    r["hang"] = hang.json;
    if (!hang.cycle.empty()) r["hang"]["cycle_text"] = hang.cycle;
  }
  std::string agents_summary, agents_state;
  if (agents) {
    agents_summary = agents->results(r);
    if (res.status != RunStatus::Completed && res.status != RunStatus::NotDrained) {
      agents_state = agents->describe();
      r["nic_state"] = agents_state;
    }
  }
  if (!fault.empty()) r[agents ? "fault" : "error"] = fault;
  rep["results"] = r;

  if (!opt.report.empty()) write_file_checked(opt.report, rep.dump(2) + "\n", "--report");  // whole or not at all
  if (opt.print_summary) {
    fmt::print("sanvp {} | scenario {} | seed {}\n", SANVP_VERSION, opt.scenario, opt.seed);
    fmt::print("simulated {} ({} traffic + drain), {} switch(es), {} nodes, status: {}\n", format_time(end),
               format_time(duration), net.switches(), net.nodes(), rep["status"].get<std::string>());
    fmt::print("packets: {} created, {} delivered intact, {} corrupt, {} duplicated; payload {} bytes\n",
               net.packets().size(), delivered, corrupt, dup, payload_bytes);
    if (!lat.empty()) {
      const auto& L = r["latency"];
      fmt::print("latency created->tail: mean {} p50 {} p99 {} max {}\n", fmt_ps(L["mean_ps"].get<double>()),
                 fmt_ps(L["p50_ps"].get<double>()), fmt_ps(L["p99_ps"].get<double>()), fmt_ps(L["max_ps"].get<double>()));
      std::uint64_t peak = 0;
      for (const auto& b : L["histogram"]) peak = std::max(peak, b["count"].get<std::uint64_t>());
      fmt::print("latency histogram created->tail:\n");
      for (const auto& b : L["histogram"]) {
        const auto c = b["count"].get<std::uint64_t>();
        fmt::print("  [{:>10}, {:>10}) {:>8} {}\n", format_time(b["from_ps"].get<Time>()), format_time(b["to_ps"].get<Time>()), c,
                   std::string(peak ? static_cast<std::size_t>((c * 40 + peak - 1) / peak) : 0, '#'));
      }
      const auto& N = r["network_latency"];
      fmt::print("latency inject->tail:  mean {} p50 {} p99 {} max {}\n", fmt_ps(N["mean_ps"].get<double>()),
                 fmt_ps(N["p50_ps"].get<double>()), fmt_ps(N["p99_ps"].get<double>()), fmt_ps(N["max_ps"].get<double>()));
    }
    fmt::print("link utilization:\n");
    int col = 0;
    for (const auto& l : links) {
      fmt::print("  {:<14} {:6.3f}", l["link"].get<std::string>(), l["utilization"].get<double>());
      if (++col % 4 == 0) fmt::print("\n");
    }
    if (col % 4) fmt::print("\n");
    fmt::print("{}", agents_summary);
    fmt::print("flit-hops: {} in {:.2f} s wall ({:.2f} M flit-hops/s)\n", net.flit_hops(), wall,
               wall > 0 ? static_cast<double>(net.flit_hops()) / wall / 1e6 : 0.0);
    if (!opt.report.empty()) fmt::print("report: {}\n", opt.report);
    if (!opt.vcd.empty()) fmt::print("waves: {}\n", opt.vcd);
  }
  if (res.status == RunStatus::Fault) {
    if (agents) fmt::print(stderr, "error: firmware fault at {}: {}\n{}", format_time(stopped), fault, agents_state);
    else fmt::print(stderr, "error: {}\n", fault);
    res.exit_code = kExitSimError;
  } else if (res.status == RunStatus::Limit) {
    fmt::print(stderr, "error: host applications had not finished at sim.limit={}\n{}", format_time(limit), agents_state);
    res.exit_code = kExitSimError;
  } else if (apps_stalled) {
    fmt::print(stderr, "error: host applications stalled: no flit moved and no NIC or host did anything for {} (at {})\n{}",
               format_time(watchdog), format_time(end), agents_state);
    res.exit_code = kExitSimError;
  } else if (res.status == RunStatus::Hung) {
    fmt::print(stderr, "error: network hung: packets in flight but no flit moved for {} (at {})\n", format_time(watchdog),
               format_time(end));
    fmt::print(stderr, "blocked worms ({}):\n", hang.worms.size());
    for (const auto& l : hang.worms) fmt::print(stderr, "  {}\n", l);
    if (!hang.cycle.empty()) {
      fmt::print(stderr, "deadlock: dependency cycle of {} worms:\n", hang.cycle.size());
      for (const auto& l : hang.cycle) fmt::print(stderr, "  {}\n", l);
    } else {
      fmt::print(stderr, "{}\n", hang.no_cycle_reason);
    }
    res.exit_code = kExitSimError;
  } else if (res.status == RunStatus::NotDrained) {
    fmt::print(stderr, "warning: {} packets still in flight after sim.drain={}\n", in_flight(), format_time(drain));
  }
  if (agents && agents->errors()) {
    fmt::print(stderr, "error: host applications received bad messages (results.apps in the report)\n");
    res.exit_code = kExitSimError;
  }
  if (corrupt || dup) {
    fmt::print(stderr, "error: scoreboard: {} corrupt, {} duplicated packets\n", corrupt, dup);
    res.exit_code = kExitSimError;
  }
  res.report = rep;
  return res;
}

}  // namespace sanvp
