#include "platform/barrier/experiment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "platform/barrier/functional_net.hpp"
#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/topo_graph.hpp"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "platform/topo/generators.hpp"

namespace sanvp::barrier {

namespace {

Topology irregular(const ExperimentConfig& c, std::uint64_t seed) {
  return irregular_network(c.nodes, c.switches, c.ports, c.f, seed);
}

}  // namespace

std::vector<NodeAddr> random_group(const TopoGraph& tg, int size, std::uint64_t seed, int run) {
  const int n = static_cast<int>(tg.node_addr.size());
  if (size < 2 || size > n) throw UserError(fmt::format("btin experiment: group size {} outside 2..{} nodes", size, n));
  Rng rng(seed, fmt::format("btin.group.{}.{}", size, run));
  std::vector<int> ids(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) ids[static_cast<std::size_t>(i)] = i;
  std::vector<NodeAddr> g;
  for (int i = 0; i < size; ++i) {  // partial Fisher-Yates
    const auto j = static_cast<std::size_t>(i) + rng.below(static_cast<std::uint64_t>(n - i));
    std::swap(ids[static_cast<std::size_t>(i)], ids[j]);
    g.push_back(tg.node_addr[static_cast<std::size_t>(ids[static_cast<std::size_t>(i)])]);
  }
  return g;
}

namespace {

Stat stat(const std::vector<double>& v) {
  Stat s;
  if (v.empty()) return s;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0.0;
  return s;
}

double us(Time t) { return static_cast<double>(t) / static_cast<double>(kUs); }

}  // namespace

RunSample measure_group(const ExperimentConfig& cfg, const Topology& topo, const TopoGraph& tg,
                        const std::vector<NodeAddr>& members, std::uint64_t tie_seed) {
  RunSample s;
  const int size = static_cast<int>(members.size());
  s.size = size;
  const GroupPlan plan = plan_group(tg.graph, members, 1, LeafRule::DeepestLevel, PlanCheck::Representatives);
  s.height = plan.tree.height;
  s.tree_edges = plan.tree.edges;
  s.tree_switches = static_cast<int>(plan.tree.switches().size());
  for (char m : plan.tree.member) s.member_switches += m ? 1 : 0;

  FunctionalBtinNet fn(tg.graph, std::vector<int>(static_cast<std::size_t>(tg.graph.switches()), cfg.registers), cfg.lat);
  const Deployment dep = fn.create(plan);
  const auto res = fn.run({&plan}, {}, tie_seed);
  s.btin = res.at(0).latency;
  s.links_btin = res.at(0).links;
  const SchemeCost closed = btin_cost(cfg.lat, plan.tree.height, plan.tree.edges, size);
  if (dep.fallbacks == 0 && (closed.latency != s.btin || closed.links != s.links_btin))
    throw SimError(fmt::format("btin experiment: functional BTIN {} ps / {} links, closed form {} ps / {} links (size {})",
                               s.btin, s.links_btin, closed.latency, closed.links, size));

  // Baselines on the up*/down* paths from the root switch (lengths are symmetric: the reverse of
  // a legal up*/down* path is legal).
  const UpDownPaths up = updown_paths(topo, plan.root);
  std::vector<int> d;
  std::set<std::pair<int, int>> mc;  // (switch, output port) of the multicast tree
  for (const auto& m : plan.members) {
    if (m == plan.root_node) continue;
    d.push_back(up.dist[static_cast<std::size_t>(m.sw)] + 2);
    for (const auto& h : up.hops[static_cast<std::size_t>(m.sw)]) mc.insert(h);
    mc.insert({m.sw, m.port});
  }
  s.updown_depth = *std::max_element(d.begin(), d.end());
  s.mc_links = static_cast<int>(mc.size()) + 1;  // + the root node's link into its switch
  const SchemeCost uc = unicast_cost(cfg.lat, d);
  const SchemeCost mcost = multicast_cost(cfg.lat, d, s.mc_links, s.updown_depth);
  s.unicast = uc.latency;
  s.links_unicast = uc.links;
  s.multicast = mcost.latency;
  s.links_multicast = mcost.links;
  return s;
}

namespace {

RunSample one_run(const ExperimentConfig& cfg, const Topology& topo, const TopoGraph& tg, int size, int run,
                  std::uint64_t net_seed) {
  RunSample s = measure_group(cfg, topo, tg, random_group(tg, size, cfg.seed, run), net_seed ^ static_cast<std::uint64_t>(size));
  s.run = run;
  s.net_seed = net_seed;
  return s;
}

}  // namespace

ExperimentResult run_experiment(const ExperimentConfig& cfg) {
  ExperimentResult r;
  r.cfg = cfg;
  if (cfg.runs < 1) throw UserError(fmt::format("btin experiment: runs = {} (must be >= 1)", cfg.runs));
  if (cfg.sizes.empty()) throw UserError("btin experiment: no group sizes");
  std::vector<Topology> nets;
  std::vector<std::unique_ptr<TopoGraph>> graphs;
  try {
    for (int run = 0; run < cfg.runs; ++run) {
      nets.push_back(irregular(cfg, cfg.seed + static_cast<std::uint64_t>(run)));
      graphs.push_back(std::make_unique<TopoGraph>(nets.back()));
    }
  } catch (const UserError& e) {
    r.config_error = e.what();
    return r;
  }
  for (int size : cfg.sizes) {
    SizeSummary sum;
    sum.size = size;
    std::vector<double> b, u, m, lb, lu, lm, h;
    for (int run = 0; run < cfg.runs; ++run) {
      const RunSample s = one_run(cfg, nets[static_cast<std::size_t>(run)], *graphs[static_cast<std::size_t>(run)], size, run,
                                  cfg.seed + static_cast<std::uint64_t>(run));
      b.push_back(us(s.btin));
      u.push_back(us(s.unicast));
      m.push_back(us(s.multicast));
      lb.push_back(static_cast<double>(s.links_btin));
      lu.push_back(static_cast<double>(s.links_unicast));
      lm.push_back(static_cast<double>(s.links_multicast));
      h.push_back(s.height);
      r.samples.push_back(s);
    }
    sum.btin_us = stat(b);
    sum.unicast_us = stat(u);
    sum.multicast_us = stat(m);
    sum.links_btin = stat(lb);
    sum.links_unicast = stat(lu);
    sum.links_multicast = stat(lm);
    sum.height = stat(h);
    try {
      sum.theorem1 = theorem1_height(cfg.f, cfg.ports, cfg.nodes, cfg.switches, size);
    } catch (const UserError&) {
      sum.theorem1 = std::nan("");
    }
    r.summary.push_back(sum);
  }
  return r;
}

std::string experiment_csv(const ExperimentResult& r) {
  std::string s =
      "nodes,switches,ports,f,size,run,net_seed,height,tree_edges,tree_switches,member_switches,updown_depth,mc_links,"
      "btin_us,unicast_us,multicast_us,links_btin,links_unicast,links_multicast\n";
  const auto& c = r.cfg;
  for (const auto& x : r.samples)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{},{},{}\n", c.nodes, c.switches, c.ports, c.f,
                     x.size, x.run, x.net_seed, x.height, x.tree_edges, x.tree_switches, x.member_switches, x.updown_depth,
                     x.mc_links, us(x.btin), us(x.unicast), us(x.multicast), x.links_btin, x.links_unicast, x.links_multicast);
  return s;
}

nlohmann::json experiment_json(const ExperimentResult& r) {
  const auto& c = r.cfg;
  nlohmann::json j;
  j["config"] = {{"nodes", c.nodes}, {"switches", c.switches}, {"ports", c.ports}, {"f", c.f}, {"runs", c.runs},
                 {"seed", c.seed}, {"registers", c.registers},
                 {"t_s_ns", static_cast<double>(c.lat.t_s) / kNs}, {"t_p_ns", static_cast<double>(c.lat.t_p) / kNs},
                 {"t_r_ns", static_cast<double>(c.lat.t_r) / kNs}, {"t_root_ns", static_cast<double>(c.lat.t_root) / kNs}};
  if (!r.config_error.empty()) j["error"] = r.config_error;
  auto st = [](const Stat& s) { return nlohmann::json{{"mean", s.mean}, {"min", s.min}, {"max", s.max}, {"sd", s.sd}}; };
  j["sizes"] = nlohmann::json::array();
  for (const auto& s : r.summary)
    j["sizes"].push_back({{"size", s.size}, {"height", st(s.height)}, {"theorem1_height", std::isnan(s.theorem1) ? nlohmann::json() : nlohmann::json(s.theorem1)},
                          {"btin_us", st(s.btin_us)}, {"unicast_us", st(s.unicast_us)}, {"multicast_us", st(s.multicast_us)},
                          {"links_btin", st(s.links_btin)}, {"links_unicast", st(s.links_unicast)},
                          {"links_multicast", st(s.links_multicast)}});
  return j;
}

std::string experiment_table(const ExperimentResult& r) {
  const auto& c = r.cfg;
  std::string s = fmt::format(
      "BTIN experiment: {} nodes, {} switches of {} ports, f = {}, {} runs, seed {}; t_s = {} ns, t_p = {} ns, t_r = {} ns, "
      "t_root = {} ns\n",
      c.nodes, c.switches, c.ports, c.f, c.runs, c.seed, c.lat.t_s / kNs, c.lat.t_p / kNs, c.lat.t_r / kNs, c.lat.t_root / kNs);
  if (!r.config_error.empty()) return s + "configuration refused: " + r.config_error + "\n";
  s += fmt::format("{:>5} {:>6} {:>6} {:>9} {:>11} {:>11} {:>7} {:>7} {:>8} {:>8} {:>7}\n", "n", "height", "Thm1", "BTIN us",
                   "unicast us", "mcast us", "mc/BTIN", "lnk BTIN", "lnk uc", "lnk mc", "mc/BTIN");
  for (const auto& x : r.summary)
    s += fmt::format("{:>5} {:>6.2f} {:>6.2f} {:>9.2f} {:>11.2f} {:>11.2f} {:>7.2f} {:>8.1f} {:>8.1f} {:>8.1f} {:>7.2f}\n", x.size,
                     x.height.mean, x.theorem1, x.btin_us.mean, x.unicast_us.mean, x.multicast_us.mean,
                     x.multicast_us.mean / x.btin_us.mean, x.links_btin.mean, x.links_unicast.mean, x.links_multicast.mean,
                     x.links_multicast.mean / x.links_btin.mean);
  return s;
}

}  // namespace sanvp::barrier
