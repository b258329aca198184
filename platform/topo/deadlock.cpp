#include "platform/topo/deadlock.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "platform/core/error.hpp"

namespace sanvp {

DeadlockReport check_deadlock(const Topology& t, const RouteTable& routes) {
  const auto pm = t.port_map();
  // Channel index = switch output port, dense.
  std::vector<int> base(t.switches.size() + 1, 0);
  for (std::size_t s = 0; s < t.switches.size(); ++s) base[s + 1] = base[s] + t.switches[s].ports;
  const int C = base.back();
  // Adjacency lists stay short (a channel leads to at most ports-1 others), so de-duplication
  // is a linear scan; the first route creating an edge is kept as its witness.
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(C));
  std::vector<std::vector<std::pair<int, int>>> wit(static_cast<std::size_t>(C));
  std::size_t edges = 0;
  std::vector<char> used(static_cast<std::size_t>(C), 0);
  const int n = routes.nodes();
  if (n != static_cast<int>(t.nodes.size())) throw UserError(fmt::format("route set has {} nodes, the topology {}", n, t.nodes.size()));
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d) {
      if (s == d) continue;
      const auto r = routes.at(s, d);
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
  DeadlockReport rep;
  for (char u : used) rep.channels += u != 0;
  rep.dependencies = edges;
  // Sorted successor lists make the search order, and so the cycle reported, independent of
  // route order.
  std::vector<std::vector<std::pair<int, std::pair<int, int>>>> sorted(static_cast<std::size_t>(C));
  for (int c = 0; c < C; ++c) {
    for (std::size_t i = 0; i < adj[c].size(); ++i) sorted[c].emplace_back(adj[c][i], wit[c][i]);
    std::sort(sorted[c].begin(), sorted[c].end());
    for (std::size_t i = 0; i < adj[c].size(); ++i) { adj[c][i] = sorted[c][i].first; wit[c][i] = sorted[c][i].second; }
  }

  // Iterative DFS, colours 0 white, 1 on stack, 2 done; a grey target closes a cycle.
  std::vector<char> colour(static_cast<std::size_t>(C), 0);
  std::vector<int> parent(static_cast<std::size_t>(C), -1);
  auto chan = [&](int c, int& sw, int& port) {
    sw = static_cast<int>(std::upper_bound(base.begin(), base.end(), c) - base.begin()) - 1;
    port = c - base[sw];
  };
  for (int start = 0; start < C && rep.acyclic; ++start) {
    if (colour[start] || adj[start].empty()) continue;
    std::vector<std::pair<int, std::size_t>> stack{{start, 0}};
    colour[start] = 1;
    while (!stack.empty() && rep.acyclic) {
      auto& [v, i] = stack.back();
      if (i < adj[v].size()) {
        const int w = adj[v][i++];
        if (colour[w] == 0) {
          colour[w] = 1;
          parent[w] = v;
          stack.emplace_back(w, 0);
        } else if (colour[w] == 1) {
          // Cycle: w -> ... -> v -> w along parents.
          std::vector<int> cyc{v};
          for (int x = v; x != w; x = parent[x]) cyc.push_back(parent[x]);
          std::reverse(cyc.begin(), cyc.end());  // w ... v
          for (std::size_t k = 0; k < cyc.size(); ++k) {
            const int a = cyc[k], b = cyc[(k + 1) % cyc.size()];
            DependencyEdge e;
            chan(a, e.from_sw, e.from_port);
            chan(b, e.to_sw, e.to_port);
            const auto wi = static_cast<std::size_t>(std::find(adj[a].begin(), adj[a].end(), b) - adj[a].begin());
            e.src = wit[a][wi].first;
            e.dst = wit[a][wi].second;
            rep.cycle.push_back(e);
          }
          rep.acyclic = false;
        }
      } else {
        colour[v] = 2;
        stack.pop_back();
      }
    }
  }
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
