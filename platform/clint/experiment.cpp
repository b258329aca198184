#include "hw/base/sim_time.hpp"
#include "hw/base/asan_stack.hpp"
#include "platform/clint/experiment.hpp"

#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <systemc>

#include "hw/clint/bulk_channel.hpp"
#include "hw/clint/quick_channel.hpp"
#include "hw/clint/unscheduled_bulk.hpp"
#include "hw/base/error.hpp"
#include "hw/base/trace.hpp"

namespace sanvp::clint {

namespace {

struct Instance {
  ExperimentPoint point;
  Time packet_time = 0;
  std::unique_ptr<BulkChannel> b4;
  std::unique_ptr<UnscheduledBulk> b123;
  std::unique_ptr<QuickChannel> q;
  const ChannelStats& stats() const { return b4 ? b4->stats() : b123 ? b123->stats() : q->stats(); }
  std::uint64_t backlog() const { return b4 ? b4->backlog() : b123 ? b123->backlog() : q->backlog(); }
};
}  // namespace

bool known_arch(const std::string& a) {
  return a == "B1" || a == "B2" || a == "B3" || a == "B4" || a == "Q1" || a == "Q2";
}

ExperimentSetup experiment_setup(ParamValues& pv, std::uint64_t seed) {
  ExperimentSetup s;  // declared ranges: hosts 2..kMaxPorts, cycles >= 1000, warmup < 1
  s.read_params(pv);
  s.seed = seed;
  return s;
}

nlohmann::json run_experiment(ParamValues& pv, const ExperimentSetup& setup, const std::vector<ExperimentPoint>& points,
                              double* wall_s) {
  const BulkConfig bulk = BulkConfig::from(pv);
  const TrafficConfig base = TrafficConfig::from(pv);
  const ArbiterParams arb = ArbiterParams::from_params(pv);
  QuickConfig quick = QuickConfig::from(pv, bulk.slot());
  UnscheduledConfig unsched = UnscheduledConfig::from(pv, UnscheduledMode::Drop);
  make_arbiter(arb.arbiter, setup.hosts, arb.islip_iterations);  // validate the name before elaborating anything
  pv.check_all_used();

  const Time end = setup.cycles * setup.cycle;
  const Time warmup = static_cast<Time>(std::llround(static_cast<double>(end) * setup.warmup));
  Tracer& tr = Tracer::global();
  if (!setup.vcd.empty()) {
    tr.configure("", 0, kNever);
    if (!tr.open(setup.vcd)) throw UserError(fmt::format("--vcd: cannot create '{}'", setup.vcd));
    tr.set_now_fn(&now_ps);
  }
  std::vector<Instance> inst;
  inst.reserve(points.size());
  for (const auto& p : points) {
    if (!known_arch(p.arch)) throw UserError(fmt::format("clint: unknown architecture '{}' (B1, B2, B3, B4, Q1, Q2)", p.arch));
    TrafficConfig t = base;
    t.load = p.load;
    t.bursty = p.bursty;
    if (!(t.load >= kMinLoad && t.load <= 1)) throw UserError(fmt::format("clint: load {} outside [{}, 1]", t.load, kMinLoad));
    const std::string name = fmt::format("{}_load{:03}_{}", p.arch, static_cast<int>(std::lround(p.load * 100)), p.bursty ? "bursty" : "smooth");
    Instance in;
    in.point = p;
    if (p.arch == "B4") {
      in.b4 = std::make_unique<BulkChannel>(name.c_str(), bulk, t, setup.hosts, make_arbiter(arb.arbiter, setup.hosts, arb.islip_iterations),
                                            setup.seed, warmup);
      in.packet_time = bulk.slot();
    } else if (p.arch[0] == 'B') {
      UnscheduledConfig u = unsched;
      u.mode = p.arch == "B1" ? UnscheduledMode::Drop : p.arch == "B2" ? UnscheduledMode::BackPressure : UnscheduledMode::OutputBuffered;
      in.b123 = std::make_unique<UnscheduledBulk>(name.c_str(), bulk, u, t, setup.hosts, setup.seed, warmup);
      in.packet_time = bulk.breq_time();
    } else {
      QuickConfig q = quick;
      q.interleave = p.arch == "Q2";
      in.q = std::make_unique<QuickChannel>(name.c_str(), q, t, setup.hosts, setup.seed, warmup);
      in.packet_time = q.qreq_time();
    }
    inst.push_back(std::move(in));
  }
  const auto wall0 = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::sc_time::from_value(end));
  back_on_main_stack();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  // The waves are closed by the command once the results are written: a wave file that cannot
  // be finished (disk full, vcd2fst failed) must not cost them.

  nlohmann::json out = nlohmann::json::array();
  for (const auto& in : inst) {
    const ChannelStats& s = in.stats();
    const std::uint64_t backlog = in.backlog();
    const double offered_slots = static_cast<double>(setup.hosts) * static_cast<double>(end) / static_cast<double>(in.packet_time);
    nlohmann::json j = s.to_json();
    j["arch"] = in.point.arch;
    j["load"] = in.point.load;
    j["bursty"] = in.point.bursty;
    j["backlog"] = backlog;
    j["throughput"] = static_cast<double>(s.completed) / offered_slots;
    j["saturated"] = backlog > std::max<std::uint64_t>(100, s.generated / 50);
    j["collision_rate"] = s.transmissions ? static_cast<double>(s.collisions) / static_cast<double>(s.transmissions) : 0.0;
    j["ack_collision_rate"] = s.transmissions ? static_cast<double>(s.collisions_with_ack) / static_cast<double>(s.transmissions) : 0.0;
    if (in.b4) j["arbiter"] = arb.arbiter;
    out.push_back(j);
  }
  nlohmann::json meta = {{"hosts", setup.hosts}, {"cycles", setup.cycles}, {"cycle_ps", setup.cycle}, {"seed", setup.seed},
                         {"warmup", setup.warmup}, {"bulk_slot_ps", bulk.slot()}, {"parameters", pv.effective()}};
  if (wall_s) *wall_s = wall;
  return {{"meta", meta}, {"points", out}};
}

std::string experiment_table(const ExperimentSetup& setup, const nlohmann::json& res) {
  std::string t = fmt::format("clint: {} hosts, {} cycles of {} ps, seed {}, warm-up {:.0f} %\n", setup.hosts, setup.cycles, setup.cycle,
                              setup.seed, setup.warmup * 100);
  t += fmt::format("{:<4} {:>5} {:<7} {:>12} {:>12} {:>10} {:>10} {:>9} {}\n", "arch", "load", "traffic", "latency_us", "max_us",
                   "accepted", "coll_rate", "retx", "");
  for (const auto& p : res["points"]) {
    // No packet completed after the warm-up: there is no latency to show (not 0).
    const bool measured = p["latency_samples"].get<std::uint64_t>() > 0;
    auto us = [&](const char* k) { return measured ? fmt::format("{:.3f}", p[k].get<double>()) : std::string("-"); };
    t += fmt::format("{:<4} {:>5.2f} {:<7} {:>12} {:>12} {:>10.4f} {:>10.4f} {:>9} {}\n", p["arch"].get<std::string>(),
                     p["load"].get<double>(), p["bursty"].get<bool>() ? "bursty" : "smooth", us("mean_latency_us"), us("max_latency_us"),
                     p["throughput"].get<double>(), p["collision_rate"].get<double>(), p["retransmissions"].get<std::uint64_t>(),
                     p["saturated"].get<bool>() ? "saturated" : "");
  }
  return t;
}

std::size_t unmeasured_points(const nlohmann::json& res) {
  std::size_t n = 0;
  for (const auto& p : res["points"]) n += p["latency_samples"].get<std::uint64_t>() > 0 ? 0 : 1;
  return n;
}

}  // namespace sanvp::clint
