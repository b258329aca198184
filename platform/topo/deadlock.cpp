#include "platform/topo/deadlock.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

namespace {

// The channel dependency graph. Channel index = switch output port, dense. Adjacency lists stay
// short (a channel leads to at most ports-1 others), so de-duplication is a linear scan; the
// first route creating an edge is kept as its witness.
struct DependencyGraph {
  std::vector<int> base;  // first channel of each switch
  std::vector<std::vector<int>> adj;
  std::vector<std::vector<std::pair<int, int>>> wit;  // (src, dst) of the route behind each edge
  std::vector<char> used;
  std::size_t edges = 0;

  explicit DependencyGraph(const Topology& t) : base(t.switches.size() + 1, 0) {
    for (std::size_t s = 0; s < t.switches.size(); ++s) base[s + 1] = base[s] + t.switches[s].ports;
    adj.resize(static_cast<std::size_t>(channels()));
    wit.resize(static_cast<std::size_t>(channels()));
    used.assign(static_cast<std::size_t>(channels()), 0);
  }
  int channels() const { return base.back(); }
  void channel(int c, int& sw, int& port) const {
    sw = static_cast<int>(std::upper_bound(base.begin(), base.end(), c) - base.begin()) - 1;
    port = c - base[sw];
  }

  // Adds the dependencies of route s->d; throws UserError when it does not end at d.
  void add_route(const Topology& t, const std::vector<std::vector<PortEnd>>& pm, int s, int d, const RouteTable::View& r) {
    int sw = t.nodes[s].sw, prev = -1, reached = -1;
    for (std::size_t h = 0; h < r.size; ++h) {
      if (r[h] >= pm[sw].size()) break;
      const auto& e = pm[sw][r[h]];
      if (e.kind == PortEnd::Node) { reached = h + 1 == r.size ? e.id : -1; break; }
      if (e.kind != PortEnd::Switch) break;
      const int ch = base[sw] + r[h];
      used[ch] = 1;
      if (prev >= 0 && std::find(adj[prev].begin(), adj[prev].end(), ch) == adj[prev].end()) {
        adj[prev].push_back(ch);
        wit[prev].emplace_back(s, d);
        ++edges;
      }
      prev = ch;
      sw = e.id;
    }
    if (reached != d) {
      // Slow path only for a bad route: walk_route names the failing hop.
      const std::string what = fmt::format("route n{}->n{} [{}]", s, d, format_route(r));
      const int got = walk_route(t, pm, s, r, what);
      throw UserError(fmt::format("{}: ends at node n{}, not n{}", what, got, d));
    }
  }

  // Sorted successor lists make the search order, and so the cycle reported, independent of
  // route order.
  void sort_successors() {
    std::vector<std::pair<int, std::pair<int, int>>> sorted;
    for (int c = 0; c < channels(); ++c) {
      sorted.clear();
      for (std::size_t i = 0; i < adj[c].size(); ++i) sorted.emplace_back(adj[c][i], wit[c][i]);
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t i = 0; i < adj[c].size(); ++i) { adj[c][i] = sorted[i].first; wit[c][i] = sorted[i].second; }
    }
  }

  // The cycle w -> ... -> v -> w along `parent`, as dependency edges with their witness routes.
  std::vector<DependencyEdge> cycle_edges(int v, int w, const std::vector<int>& parent) const {
    std::vector<int> cyc{v};
    for (int x = v; x != w; x = parent[x]) cyc.push_back(parent[x]);
    std::reverse(cyc.begin(), cyc.end());  // w ... v
    std::vector<DependencyEdge> out;
    for (std::size_t k = 0; k < cyc.size(); ++k) {
      const int a = cyc[k], b = cyc[(k + 1) % cyc.size()];
      DependencyEdge e;
      channel(a, e.from_sw, e.from_port);
      channel(b, e.to_sw, e.to_port);
      const auto wi = static_cast<std::size_t>(std::find(adj[a].begin(), adj[a].end(), b) - adj[a].begin());
      e.src = wit[a][wi].first;
      e.dst = wit[a][wi].second;
      out.push_back(e);
    }
    return out;
  }

  // Iterative DFS, colours 0 white, 1 on stack, 2 done; a grey target closes a cycle (the first
  // one found is returned; empty when acyclic).
  std::vector<DependencyEdge> find_cycle() const {
    const int C = channels();
    std::vector<char> colour(static_cast<std::size_t>(C), 0);
    std::vector<int> parent(static_cast<std::size_t>(C), -1);
    for (int start = 0; start < C; ++start) {
      if (colour[start] || adj[start].empty()) continue;
      std::vector<std::pair<int, std::size_t>> stack{{start, 0}};
      colour[start] = 1;
      while (!stack.empty()) {
        auto& [v, i] = stack.back();
        if (i >= adj[v].size()) {
          colour[v] = 2;
          stack.pop_back();
          continue;
        }
        const int w = adj[v][i++];
        if (colour[w] == 1) return cycle_edges(v, w, parent);
        if (colour[w] == 0) {
          colour[w] = 1;
          parent[w] = v;
          stack.emplace_back(w, 0);
        }
      }
    }
    return {};
  }
};

}  // namespace

DeadlockReport check_deadlock(const Topology& t, const RouteTable& routes, const std::vector<ExtraRoute>& extra) {
  const auto pm = t.port_map();
  DependencyGraph g(t);
  const int n = routes.nodes();
  if (n != static_cast<int>(t.nodes.size())) throw UserError(fmt::format("route set has {} nodes, the topology {}", n, t.nodes.size()));
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d)
      if (s != d) g.add_route(t, pm, s, d, routes.at(s, d));
  for (const auto& x : extra) {
    if (x.src < 0 || x.src >= n || x.dst < 0 || x.dst >= n) throw UserError(fmt::format("route n{}->n{}: no such node", x.src, x.dst));
    g.add_route(t, pm, x.src, x.dst, RouteTable::View{x.route.data(), x.route.size()});
  }
  DeadlockReport rep;
  for (char u : g.used) rep.channels += u != 0;
  rep.dependencies = g.edges;
  g.sort_successors();
  rep.cycle = g.find_cycle();
  rep.acyclic = rep.cycle.empty();
  return rep;
}

std::string DeadlockReport::describe(const Topology& t) const {
  const auto pm = t.port_map();
  auto name = [&](int sw, int port) { return fmt::format("sw{}.p{}->sw{}", sw, port, pm[sw][port].id); };
  if (acyclic)
    return fmt::format("deadlock check: channel dependency graph is acyclic ({} channels, {} dependencies): routes are deadlock-free\n",
                       channels, dependencies);
  std::string s = fmt::format("deadlock check: channel dependency graph has a cycle of {} channels ({} channels, {} dependencies):\n",
                              cycle.size(), channels, dependencies);
  for (const auto& e : cycle)
    s += fmt::format("  {:<16} waits for {:<16} (route n{}->n{})\n", name(e.from_sw, e.from_port), name(e.to_sw, e.to_port), e.src, e.dst);
  return s;
}

}  // namespace sanvp
