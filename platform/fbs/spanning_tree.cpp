#include "platform/fbs/spanning_tree.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::fbs {
namespace {

using Idx = std::size_t;

// Switch ids ordered by BFS depth, deepest first: children before parents.
std::vector<int> deepest_first(const UpDownTree& u) {
  std::vector<int> order(u.level.size());
  for (Idx i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return u.level[Idx(a)] > u.level[Idx(b)]; });
  return order;
}

// BFS parent: the lowest-id neighbour one level nearer the root.
std::vector<int> bfs_parents(const Topology& t, const UpDownTree& u) {
  const auto pm = t.port_map();
  std::vector<int> parent(pm.size(), -1);
  for (Idx s = 0; s < pm.size(); ++s)
    for (const auto& e : pm[s])
      if (e.kind == PortEnd::Switch && u.level[Idx(e.id)] == u.level[s] - 1 && (parent[s] < 0 || e.id < parent[s])) parent[s] = e.id;
  return parent;
}

std::vector<int> checked_nics(const Topology& t, const std::vector<int>& nics) {
  std::vector<int> u = nics;
  if (u.empty())
    for (const auto& n : t.nodes) u.push_back(n.id);
  std::sort(u.begin(), u.end());
  for (Idx i = 0; i < u.size(); ++i) {
    if (u[i] < 0 || u[i] >= static_cast<int>(t.nodes.size()))
      throw UserError(fmt::format("fbs: NIC {} is not a node of the topology (nodes 0..{})", u[i], int(t.nodes.size()) - 1));
    if (i > 0 && u[i] == u[i - 1]) throw UserError(fmt::format("fbs: NIC {} listed twice", u[i]));
  }
  if (u.empty()) throw UserError("fbs: the topology has no nodes to synchronize");
  return u;
}

// Drops switches without NICs below them and moves a NIC-less single-child root down.
void prune(SpanningTree& tr, const std::vector<int>& order) {
  std::vector<int> count(tr.parent.size(), 0);
  for (int s : order) {
    count[Idx(s)] += static_cast<int>(tr.nics[Idx(s)].size());
    if (tr.parent[Idx(s)] >= 0) count[Idx(tr.parent[Idx(s)])] += count[Idx(s)];
  }
  for (Idx s = 0; s < count.size(); ++s)
    if (count[s] == 0) tr.parent[s] = -1;
  for (Idx s = 0; s < count.size(); ++s)
    if (tr.parent[s] >= 0) tr.children[Idx(tr.parent[s])].push_back(static_cast<int>(s));
  while (tr.nics[Idx(tr.root)].empty() && tr.children[Idx(tr.root)].size() == 1) {
    const int child = tr.children[Idx(tr.root)].front();
    tr.children[Idx(tr.root)].clear();
    tr.parent[Idx(child)] = -1;
    tr.root = child;
  }
  // Members: the root and every switch that still has a parent (the moved-over chain has none).
  tr.level.assign(count.size(), -1);
  for (Idx s = 0; s < count.size(); ++s)
    if (tr.parent[s] >= 0 || s == Idx(tr.root)) tr.level[s] = 0;
}

// Height levels and subtree leaders, children before parents.
void heights(SpanningTree& tr, const std::vector<int>& order) {
  tr.smallest.assign(tr.level.size(), -1);
  for (int s : order) {
    if (!tr.in_tree(s)) continue;
    int lvl = 1, small = tr.nics[Idx(s)].empty() ? -1 : tr.nics[Idx(s)].front();
    for (int c : tr.children[Idx(s)]) {
      lvl = std::max(lvl, tr.level[Idx(c)] + 1);
      if (small < 0 || tr.smallest[Idx(c)] < small) small = tr.smallest[Idx(c)];
    }
    tr.level[Idx(s)] = lvl;
    tr.smallest[Idx(s)] = small;
  }
  tr.levels = tr.level[Idx(tr.root)] + 1;
}

// The lowest port of switch `from` cabled to switch `to`.
std::uint8_t port_to(const std::vector<std::vector<PortEnd>>& pm, int from, int to) {
  for (Idx p = 0; p < pm[Idx(from)].size(); ++p)
    if (pm[Idx(from)][p].kind == PortEnd::Switch && pm[Idx(from)][p].id == to) return static_cast<std::uint8_t>(p);
  throw std::logic_error(fmt::format("fbs: switch {} has no link to switch {}", from, to));
}

// Tree path from switch a to switch b as output ports (up to the common ancestor, then down).
std::vector<std::uint8_t> tree_path(const SpanningTree& tr, const std::vector<std::vector<PortEnd>>& pm, int a, int b) {
  std::vector<std::uint8_t> up, down;
  while (a != b) {
    if (tr.level[Idx(a)] <= tr.level[Idx(b)]) {  // a is not above b: climb from a
      up.push_back(port_to(pm, a, tr.parent[Idx(a)]));
      a = tr.parent[Idx(a)];
    } else {
      down.push_back(port_to(pm, tr.parent[Idx(b)], b));
      b = tr.parent[Idx(b)];
    }
  }
  up.insert(up.end(), down.rbegin(), down.rend());
  return up;
}

}  // namespace

SpanningTree spanning_tree(const Topology& t, const std::vector<int>& nics) {
  const UpDownTree u = updown_tree(t);
  const std::vector<int> order = deepest_first(u);
  SpanningTree tr;
  tr.root = u.root;
  tr.parent = bfs_parents(t, u);
  tr.children.assign(t.switches.size(), {});
  tr.nics.assign(t.switches.size(), {});
  for (int n : checked_nics(t, nics)) tr.nics[Idx(t.nodes[Idx(n)].sw)].push_back(n);
  prune(tr, order);
  heights(tr, order);
  return tr;
}

std::vector<int> SpanningTree::at_level(int i) const {
  std::vector<int> v;
  for (Idx s = 0; s < level.size(); ++s)
    if (level[s] == i) v.push_back(static_cast<int>(s));
  return v;
}

RouteTable tree_routes(const Topology& t, const SpanningTree& tree) {
  const auto pm = t.port_map();
  const RouteTable updown = updown_routes(t);
  const int n = static_cast<int>(t.nodes.size());
  std::vector<char> member(Idx(n), 0);
  for (const auto& list : tree.nics)
    for (int x : list) member[Idx(x)] = 1;
  RouteTable rt(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b || !member[Idx(a)] || !member[Idx(b)]) {
        const auto v = updown.at(a, b);
        rt.append(a, b, v.data, v.size);
        continue;
      }
      auto r = tree_path(tree, pm, t.nodes[Idx(a)].sw, t.nodes[Idx(b)].sw);
      r.push_back(static_cast<std::uint8_t>(t.nodes[Idx(b)].port));
      rt.append(a, b, r.data(), r.size());
    }
  return rt;
}

}  // namespace sanvp::fbs
