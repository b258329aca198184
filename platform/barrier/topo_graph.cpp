#include "platform/barrier/topo_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "hw/base/error.hpp"
#include "platform/topo/generators.hpp"
#include "platform/topo/routing.hpp"

namespace sanvp::barrier {

namespace {
int max_ports(const Topology& t) {
  int k = 2;
  for (const auto& s : t.switches) k = std::max(k, s.ports);
  return k;
}
}  // namespace

TopoGraph::TopoGraph(const Topology& t) : graph(static_cast<int>(t.switches.size()), max_ports(t)) {
  for (const auto& l : t.links) graph.add_link(l.sw_a, l.port_a, l.sw_b, l.port_b);
  node_addr.resize(t.nodes.size());
  for (const auto& n : t.nodes) {
    graph.add_node(n.sw, n.port);
    node_addr[static_cast<std::size_t>(n.id)] = NodeAddr{n.sw, n.port};
    node_id[NodeAddr{n.sw, n.port}] = n.id;
  }
}

UpDownPaths updown_paths(const Topology& t, int from) {
  const int q = static_cast<int>(t.switches.size());
  const auto pm = t.port_map();
  const UpDownTree u = updown_tree(t);
  std::vector<int> dist(static_cast<std::size_t>(2 * q), -1), prev(dist.size(), -1), prev_port(dist.size(), -1);
  std::deque<int> dq{2 * from};
  dist[static_cast<std::size_t>(2 * from)] = 0;
  while (!dq.empty()) {
    const int st = dq.front();
    dq.pop_front();
    const int x = st / 2, phase = st % 2;
    for (int p = 0; p < static_cast<int>(pm[static_cast<std::size_t>(x)].size()); ++p) {
      const auto& e = pm[static_cast<std::size_t>(x)][static_cast<std::size_t>(p)];
      if (e.kind != PortEnd::Switch) continue;
      const bool up = u.up(x, e.id);
      if (phase == 1 && up) continue;  // never up again after a down link
      const auto ns = static_cast<std::size_t>(e.id * 2 + (up ? 0 : 1));
      if (dist[ns] >= 0) continue;
      dist[ns] = dist[static_cast<std::size_t>(st)] + 1;
      prev[ns] = st;
      prev_port[ns] = p;
      dq.push_back(static_cast<int>(ns));
    }
  }
  UpDownPaths r;
  r.from = from;
  r.dist.assign(static_cast<std::size_t>(q), -1);
  r.hops.resize(static_cast<std::size_t>(q));
  for (int d = 0; d < q; ++d) {
    int best = -1;
    for (int ph = 0; ph < 2; ++ph) {
      const int st = 2 * d + ph;
      if (dist[static_cast<std::size_t>(st)] >= 0 && (best < 0 || dist[static_cast<std::size_t>(st)] < dist[static_cast<std::size_t>(best)])) best = st;
    }
    if (best < 0) throw UserError(fmt::format("up*/down*: no legal route from switch {} to switch {}", from, d));
    r.dist[static_cast<std::size_t>(d)] = dist[static_cast<std::size_t>(best)];
    auto& h = r.hops[static_cast<std::size_t>(d)];
    for (int st = best; st != 2 * from; st = prev[static_cast<std::size_t>(st)])
      h.emplace_back(prev[static_cast<std::size_t>(st)] / 2, prev_port[static_cast<std::size_t>(st)]);
    std::reverse(h.begin(), h.end());
  }
  return r;
}

Topology irregular_network(int nodes, int switches, int ports, double f, std::uint64_t seed) {
  GenRequest req;
  req.type = "irregular";
  req.where = Origin{"btin", "topology"};
  auto arg = [&](const char* k, std::string v) { req.args[k] = GenArg{std::move(v), Origin{"btin", k}}; };
  arg("switches", std::to_string(switches));
  arg("nodes", std::to_string(nodes));
  arg("ports", std::to_string(ports));
  arg("f", fmt::format("{}", f));
  arg("seed", std::to_string(seed));
  return generate_topology(req);
}

}  // namespace sanvp::barrier
