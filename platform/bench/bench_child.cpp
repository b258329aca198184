#include "platform/bench/bench_child.hpp"

#include <ctime>
#include <fmt/format.h>
#include <memory>
#include <sstream>
#include <systemc>

#include "hw/base/asan_stack.hpp"
#include "hw/base/error.hpp"
#include "hw/base/lookahead.hpp"
#include "platform/barrier/experiment.hpp"
#include "platform/barrier/flit_run.hpp"
#include "platform/fw/fw_platform.hpp"
#include "platform/sim/run.hpp"
#include "platform/topo/generators.hpp"
#include "platform/topo/routing.hpp"

namespace sanvp::bench {
namespace {

// CPU time of this process (all threads), in seconds.
double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

Topology mesh(int rows, int cols, int ports) {
  GenRequest r;
  r.type = "mesh";
  r.where = Origin{"bench", "mesh"};
  for (auto [k, v] : {std::pair{"rows", rows}, {"cols", cols}, {"ports", ports}, {"nodes", 1}})
    r.args[k] = GenArg{std::to_string(v), Origin{"bench", k}};
  return generate_topology(r);
}

// A mesh with up*/down* routes (deadlock-free on a mesh, unlike shortest paths), computed before
// the run so that only installing them happens inside it.
RunSpec mesh_spec(const Shape& s, ParamValues& pv) {
  auto topo = std::make_shared<Topology>(mesh(s.rows, s.cols, s.ports));
  topo->apply_params(pv);
  auto rt = std::make_shared<RouteTable>(updown_routes(*topo));
  RunSpec spec;
  spec.topology = [topo](Network& net) { topo->populate(net); };
  spec.routes = [rt](Network& net) {
    const auto n = static_cast<std::size_t>(rt->nodes());
    std::vector<std::vector<std::vector<std::uint8_t>>> table(n, std::vector<std::vector<std::uint8_t>>(n));
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) table[a][b] = rt->vec(static_cast<int>(a), static_cast<int>(b));
    net.set_route_table(std::move(table));
  };
  spec.scenario_json = {{"name", "bench-mesh"}, {"description", fmt::format("{}x{} mesh", s.rows, s.cols)}};
  return spec;
}

// Router crossings from flit counts: a switch consumes the leading route byte of every worm it
// forwards, so each crossing removes exactly one flit between the flits the nodes inject and
// those they receive. Exact for a drained run without link faults or switch-generated packets.
std::uint64_t crossings(Network& net) {
  std::uint64_t sent = 0, received = 0;
  for (int n = 0; n < net.nodes(); ++n) {
    const auto& a = net.attachment(n);
    sent += net.node_out(n).flits();
    received += net.channel(fmt::format("sw{}.p{}.out", a.sw, a.port)).flits();
  }
  if (received > sent) throw SimError(fmt::format("bench: nodes received {} flits but sent only {}", received, sent));
  return sent - received;
}

nlohmann::json run_fabric(const Shape& s, std::uint64_t seed) {
  ParamValues pv;
  pv.set("sim.duration", s.duration, "bench");
  pv.set("traffic.load", fmt::format("{}", s.load), "bench");
  pv.set("traffic.payload", "256", "bench");
  if (s.rows == 0) pv.set("switch.ports", std::to_string(s.ports), "bench");
  RunSpec spec = s.rows == 0 ? default_scenario(pv) : mesh_spec(s, pv);
  double cpu0 = 0, cpu1 = 0;
  std::uint64_t hops = 0, cross = 0, sw_hops = 0;
  bool faults = false;
  spec.on_start = [&cpu0](Network&) { cpu0 = cpu_now(); };
  spec.on_finish = [&](Network& net) {
    cpu1 = cpu_now();
    hops = net.flit_hops();
    faults = net.faults_on();
    cross = crossings(net);
    for (const auto& ch : net.channels())
      if (ch->path().rfind("sw", 0) == 0) sw_hops += ch->flits();  // a switch's output: sw<i>.p<k>.out
  };
  RunOptions opt;
  opt.seed = seed;
  opt.report = "";
  opt.print_summary = false;
  const RunResult r = run_simulation(pv, opt, spec);
  if (r.status != RunStatus::Completed || r.exit_code != 0)
    throw SimError(fmt::format("bench: the run ended '{}' (exit code {})", r.report.value("status", "?"), r.exit_code));
  if (faults) throw SimError("bench: link faults are on: crossings cannot be derived from flit counts");
  const auto& res = r.report.at("results");
  const std::uint64_t packets = res.at("packets_delivered").get<std::uint64_t>();
  if (cross < packets) throw SimError(fmt::format("bench: {} crossings for {} delivered packets", cross, packets));
  return {{"flit_hops", hops}, {"crossings", cross}, {"switch_flit_hops", sw_hops}, {"packets", packets}, {"simulated_ps", r.report.at("simulated_ps")},
          {"saturated", res.contains("measurement") ? res["measurement"].value("saturated", false) : false}, {"sim_cpu_s", cpu1 - cpu0}};
}

nlohmann::json run_iss(bool quick) {
  const std::string path = quick ? SANVP_BENCH_FW_IMAGE_QUICK : SANVP_BENCH_FW_IMAGE;
  ParamValues pv;  // every default, the default quantum included
  const fw::Image im = fw::Image::load(path);
  std::ostringstream console;
  fw::FwPlatform plat("nic", pv, im, &console);
  pv.check_all_used();
  const double cpu0 = cpu_now();
  Lookahead::set_limit(10000 * kMs);  // as `sanvp fw run` does (LanaiCore::may_run_on)
  sc_core::sc_start(sc_core::sc_time::from_value(10000 * kMs));
  back_on_main_stack();
  Lookahead::set_limit(0);
  const double cpu1 = cpu_now();
  const auto& r = plat.core->result();
  if (r.outcome != nic::LanaiCore::Outcome::kExited || r.exit_code != 0)
    throw SimError(fmt::format("bench: firmware {} did not exit with 0 within 10 s of simulated time{}{}", path,
                               r.fault_report.empty() ? "" : ":\n", r.fault_report));
  std::string out = console.str();
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return {{"instructions", r.instructions}, {"cycles", r.cycles}, {"simulated_ps", r.end_time}, {"console", out},
          {"sim_cpu_s", cpu1 - cpu0}};
}

// The two BTIN measurements of bench/barrier/bench_btin.cpp; a few results keep the runs honest.
nlohmann::json run_btin_experiment(const Shape& s, std::uint64_t seed) {
  ParamValues pv;
  barrier::ExperimentConfig c;
  c.nodes = s.nodes;
  c.switches = s.switches;
  c.sizes = {s.members};
  c.runs = s.runs;
  c.seed = seed;
  c.lat = barrier::LatencyParams::from_params(pv, "");
  const double cpu0 = cpu_now();
  const auto r = barrier::run_experiment(c);
  const double cpu1 = cpu_now();
  if (!r.config_error.empty()) throw SimError("bench: " + r.config_error);
  const auto& m = r.summary.at(0);
  return {{"runs", r.samples.size()}, {"btin_us_mean", m.btin_us.mean}, {"unicast_us_mean", m.unicast_us.mean},
          {"multicast_us_mean", m.multicast_us.mean}, {"sim_cpu_s", cpu1 - cpu0}};
}

nlohmann::json run_btin_flit(const Shape& s, std::uint64_t seed) {
  ParamValues pv;
  barrier::FlitRunConfig c;
  c.nodes = s.nodes;
  c.switches = s.switches;
  c.sizes = {s.members};
  c.groups = 1;
  c.every_member = false;
  c.seed = seed;
  const double cpu0 = cpu_now();
  const auto r = barrier::run_flit_barriers(pv, c);
  const double cpu1 = cpu_now();
  if (!r.errors.empty()) throw SimError("bench: " + r.errors.front());
  const auto& f = r.samples.at(0);
  return {{"height", f.height}, {"barrier_ps", f.flit}, {"closed_form_ps", f.closed}, {"setup_ps", f.setup},
          {"simulated_ps", r.sim_end}, {"sim_cpu_s", cpu1 - cpu0}};
}

}  // namespace

nlohmann::json build_info() {
  return {{"sanvp", SANVP_VERSION}, {"build_type", SANVP_BENCH_BUILD_TYPE}, {"compiler", SANVP_BENCH_COMPILER}};
}

nlohmann::json run_case(const BenchCase& c, bool quick, std::uint64_t seed) {
  const Shape& s = quick ? c.quick : c.full;
  nlohmann::json counts;
  switch (c.kind) {
    case Kind::Fabric: counts = run_fabric(s, seed); break;
    case Kind::Iss: counts = run_iss(quick); break;
    case Kind::BtinExperiment: counts = run_btin_experiment(s, seed); break;
    case Kind::BtinFlit: counts = run_btin_flit(s, seed); break;
  }
  return {{"case", c.name}, {"quick", quick}, {"seed", seed}, {"build", build_info()}, {"counts", counts}};
}

}  // namespace sanvp::bench
