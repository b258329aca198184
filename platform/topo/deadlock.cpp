#include "platform/topo/deadlock.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

#include "platform/core/error.hpp"

namespace sanvp {

DeadlockReport check_deadlock(const Topology& t, const RouteTable& routes) {
  const auto pm = t.port_map();
  // Channel index = switch output port, dense.
  std::vector<int> base(t.switches.size() + 1, 0);
  for (std::size_t s = 0; s < t.switches.size(); ++s) base[s + 1] = base[s] + t.switches[s].ports;
  const int C = base.back();
  // Adjacency with de-duplication through a hash of (from, to); the witness route is kept.
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(C));
  std::unordered_map<std::uint64_t, std::pair<int, int>> witness;
  std::vector<char> used(static_cast<std::size_t>(C), 0);
  const int n = routes.nodes();
  if (n != static_cast<int>(t.nodes.size())) throw UserError(fmt::format("route set has {} nodes, the topology {}", n, t.nodes.size()));
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d) {
      if (s == d) continue;
      const auto r = routes.at(s, d);
      const std::string what = fmt::format("route n{}->n{} [{}]", s, d, format_route(r));
      const int reached = walk_route(t, pm, s, r, what);
      if (reached != d) throw UserError(fmt::format("{}: ends at node n{}, not n{}", what, reached, d));
      int sw = t.nodes[s].sw, prev = -1;
      for (std::size_t h = 0; h < r.size; ++h) {
        const int ch = base[sw] + r[h];
        const auto& e = pm[sw][r[h]];
        if (e.kind != PortEnd::Switch) break;  // delivery to a node: a sink never holds a channel
        used[ch] = 1;
        if (prev >= 0) {
          const std::uint64_t key = (static_cast<std::uint64_t>(prev) << 32) | static_cast<std::uint32_t>(ch);
          if (witness.emplace(key, std::make_pair(s, d)).second) adj[prev].push_back(ch);
        }
        prev = ch;
        sw = e.id;
      }
    }
  DeadlockReport rep;
  for (char u : used) rep.channels += u != 0;
  rep.dependencies = witness.size();
  for (auto& a : adj) std::sort(a.begin(), a.end());

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
            auto wit = witness.at((static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b));
            e.src = wit.first;
            e.dst = wit.second;
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
