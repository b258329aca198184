#include "platform/barrier/btin_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "hw/base/error.hpp"

namespace sanvp::barrier {

BfsTree bfs_tree(const SwitchGraph& g, int root) {
  const auto n = static_cast<std::size_t>(g.switches());
  BfsTree t;
  t.root = root;
  t.depth.assign(n, -1);
  t.parent.assign(n, -1);
  t.up_port.assign(n, -1);
  t.down_port.assign(n, -1);
  t.depth[static_cast<std::size_t>(root)] = 0;
  std::vector<int> level{root};
  for (int d = 0; !level.empty(); ++d) {
    std::vector<int> next;
    for (int s : level) {  // ascending id
      for (const auto& l : g.links(s)) {  // ascending port
        const auto p = static_cast<std::size_t>(l.peer);
        if (t.depth[p] >= 0) continue;
        t.depth[p] = d + 1;
        t.parent[p] = s;
        t.down_port[p] = l.port;
        t.up_port[p] = l.peer_port;
        next.push_back(l.peer);
      }
    }
    std::sort(next.begin(), next.end());
    level = std::move(next);
  }
  return t;
}

std::vector<int> Btin::switches() const {
  std::vector<int> v;
  for (std::size_t s = 0; s < in_tree.size(); ++s)
    if (in_tree[s]) v.push_back(static_cast<int>(s));
  return v;
}

Btin build_btin(const SwitchGraph& g, int root, const std::vector<char>& member) {
  const auto n = static_cast<std::size_t>(g.switches());
  if (member.size() != n) throw UserError("BTIN: member mask does not match the switch count");
  BfsTree t = bfs_tree(g, root);
  Btin b;
  b.root = root;
  b.member = member;
  b.depth = t.depth;
  b.parent = t.parent;
  b.up_port = t.up_port;
  b.down_port = t.down_port;
  b.in_tree.assign(n, 0);
  b.children.assign(n, {});
  for (std::size_t s = 0; s < n; ++s)
    if (member[s] && t.depth[s] < 0)
      throw UserError(fmt::format("BTIN: member switch {} is not connected to switch {}", s, root));
  // Deepest first: a switch stays if it is a member or keeps a child (removing non-member leaves
  // until none is left).
  std::vector<int> order;
  for (std::size_t s = 0; s < n; ++s)
    if (t.depth[s] >= 0) order.push_back(static_cast<int>(s));
  std::sort(order.begin(), order.end(), [&](int a, int c) {
    return std::make_tuple(-t.depth[static_cast<std::size_t>(a)], a) < std::make_tuple(-t.depth[static_cast<std::size_t>(c)], c);
  });
  std::vector<char> keeps_child(n, 0);
  for (int s : order) {
    const auto i = static_cast<std::size_t>(s);
    if (member[i] || keeps_child[i] || s == root) {
      b.in_tree[i] = 1;
      if (t.parent[i] >= 0) keeps_child[static_cast<std::size_t>(t.parent[i])] = 1;
    }
  }
  for (std::size_t s = 0; s < n; ++s) {
    if (!b.in_tree[s]) continue;
    b.height = std::max(b.height, t.depth[s]);
    if (t.parent[s] >= 0) {
      b.children[static_cast<std::size_t>(t.parent[s])].push_back(static_cast<int>(s));
      ++b.edges;
    }
  }
  for (std::size_t s = 0; s < n; ++s) {
    if (!b.in_tree[s]) continue;
    if (b.children[s].empty()) ++b.childless;
    if (t.depth[s] == b.height) ++b.deepest;
  }
  return b;
}

namespace {

// Height, edges and leaves of the BTIN around `root` without building it: the same BFS rule as
// bfs_tree (levels scanned in ascending id, lowest port first) on buffers reused across
// candidates; in-tree switches are the members and every switch on a member's path to the root.
struct TreeScratch {
  std::vector<int> depth, parent, level, next, kids;
  std::vector<char> in_tree;
};

RootCandidate measure(const SwitchGraph& g, int root, const std::vector<char>& member, LeafRule rule, TreeScratch& w) {
  const auto n = static_cast<std::size_t>(g.switches());
  w.depth.assign(n, -1);
  w.parent.assign(n, -1);
  w.depth[static_cast<std::size_t>(root)] = 0;
  w.level.assign(1, root);
  for (int d = 0; !w.level.empty(); ++d) {
    w.next.clear();
    for (int s : w.level)
      for (const auto& l : g.links(s)) {
        const auto p = static_cast<std::size_t>(l.peer);
        if (w.depth[p] >= 0) continue;
        w.depth[p] = d + 1;
        w.parent[p] = s;
        w.next.push_back(l.peer);
      }
    std::sort(w.next.begin(), w.next.end());
    std::swap(w.level, w.next);
  }
  w.in_tree.assign(n, 0);
  w.kids.assign(n, 0);
  RootCandidate c{root, 0, 0, 0};
  int count = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (!member[s]) continue;
    if (w.depth[s] < 0) throw UserError(fmt::format("BTIN: member switch {} is not connected to switch {}", s, root));
    c.height = std::max(c.height, w.depth[s]);
    for (auto x = static_cast<int>(s); x >= 0 && !w.in_tree[static_cast<std::size_t>(x)]; x = w.parent[static_cast<std::size_t>(x)]) {
      w.in_tree[static_cast<std::size_t>(x)] = 1;
      ++count;
      if (w.parent[static_cast<std::size_t>(x)] >= 0) ++w.kids[static_cast<std::size_t>(w.parent[static_cast<std::size_t>(x)])];
    }
  }
  if (!w.in_tree[static_cast<std::size_t>(root)]) { w.in_tree[static_cast<std::size_t>(root)] = 1; ++count; }
  c.edges = count - 1;
  for (std::size_t s = 0; s < n; ++s) {
    if (!w.in_tree[s]) continue;
    if (rule == LeafRule::Childless ? w.kids[s] == 0 : w.depth[s] == c.height) ++c.leaves;
  }
  return c;
}

}  // namespace

RootSelection select_root(const SwitchGraph& g, const std::vector<char>& member, LeafRule rule) {
  if (member.size() != static_cast<std::size_t>(g.switches())) throw UserError("BTIN: member mask does not match the switch count");
  RootSelection sel;
  bool have = false;
  std::tuple<int, int, int, int> best{};
  TreeScratch w;
  for (int s = 0; s < g.switches(); ++s) {
    if (!member[static_cast<std::size_t>(s)]) continue;
    const RootCandidate c = measure(g, s, member, rule, w);
    sel.candidates.push_back(c);
    const auto key = std::make_tuple(c.height, c.edges, c.leaves, c.sw);
    if (!have || key < best) {
      have = true;
      best = key;
      sel.root = s;
    }
  }
  if (!have) throw UserError("BTIN: the group has no member switch");
  sel.tree = build_btin(g, sel.root, member);
  const RootCandidate& won = sel.candidates[static_cast<std::size_t>(
      std::find_if(sel.candidates.begin(), sel.candidates.end(), [&](const RootCandidate& c) { return c.sw == sel.root; }) -
      sel.candidates.begin())];
  if (won.height != sel.tree.height || won.edges != sel.tree.edges || won.leaves != sel.tree.leaves(rule))
    throw SimError(fmt::format("BTIN: root {} measured height/edges/leaves {}/{}/{}, tree {}/{}/{}", sel.root, won.height, won.edges,
                               won.leaves, sel.tree.height, sel.tree.edges, sel.tree.leaves(rule)));
  return sel;
}

}  // namespace sanvp::barrier
