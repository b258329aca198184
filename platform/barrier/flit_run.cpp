#include "hw/base/sim_time.hpp"
#include "hw/base/asan_stack.hpp"
#include "platform/barrier/flit_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <systemc>

#include "platform/barrier/experiment.hpp"
#include "platform/barrier/functional_net.hpp"
#include "platform/barrier/host_barrier.hpp"
#include "platform/barrier/topo_graph.hpp"
#include "platform/sim/network.hpp"
#include "platform/topo/routing.hpp"

namespace sanvp::barrier {

namespace {

struct Job { int size, run; std::vector<int> members; };

// One group after another: create, barrier (everyone arrives 1 us after the group is ready),
// measure, then the unicast scheme on the same members, destroy; the next group starts when the
// previous one is destroyed. Each step is a callback of the simulated hosts.
class GroupSequence {
 public:
  GroupSequence(Network& net, const TopoGraph& tg, BarrierHosts& hosts, const LatencyParams& mapped, std::vector<Job> jobs,
                FlitRunResult& res)
      : net_(net), tg_(tg), hosts_(hosts), mapped_(mapped), jobs_(std::move(jobs)), res_(res) {}

  std::size_t jobs() const { return jobs_.size(); }

  void start(std::size_t k, Time t) {
    if (k >= jobs_.size()) return;
    const auto gid = static_cast<std::uint8_t>(1 + k % 250);
    hosts_.create_group(gid, jobs_[k].members, t, [this, k, gid, t](Time ready) { barrier(k, gid, t, ready); });
  }

 private:
  void barrier(std::size_t k, std::uint8_t gid, Time t, Time ready) {
    const Time arrive = ready + kUs;
    auto left = std::make_shared<std::size_t>(jobs_[k].members.size());
    auto last = std::make_shared<Time>(0);
    for (int m : jobs_[k].members)
      hosts_.barrier(gid, m, arrive, [this, k, gid, t, ready, arrive, left, last](Time rel) {
        *last = std::max(*last, rel);
        if (--*left > 0) return;
        unicast(k, gid, measure(k, gid, t, ready, arrive, *last));
      });
  }

  // The barrier's sample against the closed form and the functional model (a mismatch without
  // fallback switches is an error).
  FlitSample measure(std::size_t k, std::uint8_t gid, Time t, Time ready, Time arrive, Time last) {
    const auto& g = hosts_.group(gid);
    FlitSample s;
    s.size = jobs_[k].size;
    s.run = jobs_[k].run;
    s.height = g.plan.tree.height;
    s.fallbacks = static_cast<int>(g.fallback_switches.size());
    s.setup = ready - t;
    s.flit = last - arrive;
    s.closed = 2 * (mapped_.t_s + static_cast<Time>(s.height + 2) * mapped_.t_p + static_cast<Time>(s.height + 1) * mapped_.t_r);
    FunctionalBtinNet fn(tg_.graph, std::vector<int>(static_cast<std::size_t>(tg_.graph.switches()), 8), mapped_);
    fn.create(g.plan);
    s.model = fn.run({&g.plan}, {}, 1).at(0).latency;
    if (s.fallbacks == 0 && (s.flit != s.closed || s.model != s.flit + 4 * mapped_.t_r))
      res_.errors.push_back(fmt::format("size {} run {}: flit {} ps, closed form {} ps, model {} ps", s.size, s.run, s.flit,
                                        s.closed, s.model));
    return s;
  }

  // The unicast scheme: every member sends to the root, which then answers each.
  void unicast(std::size_t k, std::uint8_t gid, const FlitSample& s) {
    const int root = tg_.node_id.at(hosts_.group(gid).plan.root_node);
    const Time begin = now_ps() + kUs;
    auto pending = std::make_shared<std::size_t>(jobs_[k].members.size() - 1);
    auto sample = std::make_shared<FlitSample>(s);
    auto finish = [this, k, gid, sample, begin](Time last_rel) {
      sample->unicast = last_rel - begin;
      res_.samples.push_back(*sample);
      hosts_.destroy_group(gid, now_ps(), [this, k](Time done) { start(k + 1, done); });
    };
    auto back = [this, k, root, begin, finish](Time reduced) { answer(k, root, std::max(reduced, begin), finish); };
    for (int m : jobs_[k].members)
      if (m != root)
        hosts_.send_message(m, root, begin, [pending, back](Time t1) { if (--*pending == 0) back(t1); });
  }

  // Farthest member first (longest route), one start-up each on the root's processor.
  void answer(std::size_t k, int root, Time from, const std::function<void(Time)>& finish) {
    std::vector<int> others;
    for (int m : jobs_[k].members) if (m != root) others.push_back(m);
    std::stable_sort(others.begin(), others.end(), [&](int a, int b) { return net_.route(root, a).size() > net_.route(root, b).size(); });
    auto left2 = std::make_shared<std::size_t>(others.size());
    auto last2 = std::make_shared<Time>(0);
    for (int m : others)
      hosts_.send_message(root, m, from, [left2, last2, finish](Time t2) {
        *last2 = std::max(*last2, t2);
        if (--*left2 == 0) finish(*last2);
      });
  }

  Network& net_;
  const TopoGraph& tg_;
  BarrierHosts& hosts_;
  const LatencyParams mapped_;
  const std::vector<Job> jobs_;
  FlitRunResult& res_;
};

// `cfg.groups` random groups of each size.
std::vector<Job> make_jobs(const TopoGraph& tg, const FlitRunConfig& cfg) {
  std::vector<Job> jobs;
  for (int size : cfg.sizes)
    for (int run = 0; run < cfg.groups; ++run) {
      Job j{size, run, {}};
      for (const auto& a : random_group(tg, size, cfg.seed, run)) j.members.push_back(tg.node_id.at(a));
      jobs.push_back(std::move(j));
    }
  return jobs;
}

}  // namespace

void build_updown_network(Network& net, const Topology& topo, ParamValues& pv) {
  topo.apply_params(pv);
  topo.populate(net);
  net.build();
  const RouteTable rt = updown_routes(topo);
  std::vector<std::vector<std::vector<std::uint8_t>>> table(static_cast<std::size_t>(rt.nodes()));
  for (int s = 0; s < rt.nodes(); ++s) {
    table[static_cast<std::size_t>(s)].resize(static_cast<std::size_t>(rt.nodes()));
    for (int d = 0; d < rt.nodes(); ++d) table[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)] = rt.vec(s, d);
  }
  net.set_route_table(std::move(table));
}

FlitRunResult run_flit_barriers(ParamValues& pv, const FlitRunConfig& cfg) {
  const auto wall0 = std::chrono::steady_clock::now();
  FlitRunResult res;
  const Topology topo = irregular_network(cfg.nodes, cfg.switches, cfg.ports, cfg.f, cfg.seed);
  const TopoGraph tg(topo);
  Network net(pv, cfg.seed);
  build_updown_network(net, topo, pv);
  const Time cp = LinkTiming::kCp.get(pv), ld = LinkTiming::kLd.get(pv);
  const Time delay = BarrierUnitConfig::kDelay.get(pv), sd = SwitchParams::kSd.get(pv);
  const LatencyParams paper = LatencyParams::from_params(pv, "");
  LatencyParams mapped;
  mapped.t_s = paper.t_s;
  mapped.t_p = 3 * cp + ld;
  mapped.t_r = delay + sd;

  HostBarrierConfig hc;
  hc.startup = paper.t_s;
  hc.plan = cfg.every_member ? PlanCheck::EveryMember : PlanCheck::Representatives;
  res.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  BarrierHosts hosts("btin_hosts", net, tg, hc);

  GroupSequence groups(net, tg, hosts, mapped, make_jobs(tg, cfg), res);
  groups.start(0, 0);
  // The simulation ends when the last group is destroyed; a barrier that never completed must
  // not run forever: 1 s of simulated time at most (then reported as incomplete).
  sc_core::sc_start(sc_core::sc_time::from_value(kMs * 1000), sc_core::SC_EXIT_ON_STARVATION);
  back_on_main_stack();
  res.sim_end = now_ps();
  for (const auto& e : hosts.errors()) res.errors.push_back(e);
  for (int s = 0; s < net.switches(); ++s) res.drops += net.sw(s).barrier_drops();
  if (res.samples.size() != groups.jobs())
    res.errors.push_back(fmt::format("{} of {} barriers completed", res.samples.size(), groups.jobs()));
  res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

std::string flit_table(const FlitRunConfig& cfg, const FlitRunResult& r) {
  std::string s = fmt::format("BTIN flit-level: {} nodes, {} switches of {} ports, f = {}, network seed {}, {} groups per size\n",
                              cfg.nodes, cfg.switches, cfg.ports, cfg.f, cfg.seed, cfg.groups);
  s += fmt::format("{:>5} {:>4} {:>6} {:>9} {:>10} {:>12} {:>12} {:>9} {:>11}\n", "n", "run", "height", "fallback", "setup us",
                   "flit us", "closed us", "model us", "unicast us");
  auto us = [](Time t) { return static_cast<double>(t) / kUs; };
  for (const auto& x : r.samples)
    s += fmt::format("{:>5} {:>4} {:>6} {:>9} {:>10.3f} {:>12.4f} {:>12.4f} {:>9.4f} {:>11.3f}\n", x.size, x.run, x.height,
                     x.fallbacks, us(x.setup), us(x.flit), us(x.closed), us(x.model), us(x.unicast));
  s += fmt::format("barrier drops {}, errors {}; simulated {}, wall {:.2f} s (network and routes {:.2f} s)\n", r.drops,
                   r.errors.size(), format_time(r.sim_end), r.wall_s, r.build_s);
  for (const auto& e : r.errors) s += "  error: " + e + "\n";
  return s;
}

nlohmann::json flit_json(const FlitRunConfig& cfg, const FlitRunResult& r) {
  nlohmann::json j;
  j["config"] = {{"nodes", cfg.nodes}, {"switches", cfg.switches}, {"ports", cfg.ports}, {"f", cfg.f}, {"seed", cfg.seed},
                 {"groups", cfg.groups}};
  j["samples"] = nlohmann::json::array();
  for (const auto& x : r.samples)
    j["samples"].push_back({{"size", x.size}, {"run", x.run}, {"height", x.height}, {"fallbacks", x.fallbacks},
                            {"setup_ps", x.setup}, {"flit_ps", x.flit}, {"closed_ps", x.closed}, {"model_ps", x.model},
                            {"unicast_ps", x.unicast}});
  j["errors"] = r.errors;
  j["drops"] = r.drops;
  return j;
}

}  // namespace sanvp::barrier
