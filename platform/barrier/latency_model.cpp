#include "platform/barrier/latency_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "hw/base/error.hpp"

namespace sanvp::barrier {

Time message_latency(const LatencyParams& p, int d) {
  if (d < 1) throw SimError(fmt::format("barrier model: message over {} links", d));
  return p.t_s + static_cast<Time>(d) * p.t_p + static_cast<Time>(d + 1) * p.t_r;
}

SchemeCost btin_cost(const LatencyParams& p, int height, int tree_edges, int members) {
  SchemeCost c;
  c.latency = 2 * message_latency(p, height + 2);
  // Every tree edge carries one REDUCE and one DISTRIBUTE; so does every member's link (the root
  // node's: the notification and its DISTRIBUTE).
  c.links = 2 * static_cast<std::uint64_t>(tree_edges + members);
  c.startups = 2;
  return c;
}

namespace {
// Root interface serving the reduction messages one at a time in arrival order (all members
// arrive at time 0); returns when the last one is handled.
Time reduction_at_root(const LatencyParams& p, std::vector<int> d) {
  std::sort(d.begin(), d.end());
  Time done = 0;
  for (int di : d) done = std::max(done, message_latency(p, di)) + p.t_root;
  return done;
}
}  // namespace

SchemeCost unicast_cost(const LatencyParams& p, std::vector<int> d) {
  SchemeCost c;
  if (d.empty()) return c;
  const Time reduced = reduction_at_root(p, d);
  std::sort(d.rbegin(), d.rend());  // farthest first
  Time last = 0;
  for (std::size_t i = 0; i < d.size(); ++i)
    last = std::max(last, static_cast<Time>(i) * p.t_s + message_latency(p, d[i]));
  c.latency = reduced + last;
  for (int di : d) c.links += 2 * static_cast<std::uint64_t>(di);
  c.startups = 2 * static_cast<int>(d.size());
  return c;
}

SchemeCost multicast_cost(const LatencyParams& p, std::vector<int> d, int mc_links, int mc_depth) {
  SchemeCost c;
  if (d.empty()) return c;
  c.latency = reduction_at_root(p, d) + message_latency(p, mc_depth);
  for (int di : d) c.links += static_cast<std::uint64_t>(di);
  c.links += static_cast<std::uint64_t>(mc_links);
  c.startups = static_cast<int>(d.size()) + 1;
  return c;
}

SchemeComparison compare_schemes(const LatencyParams& p, const Btin& tree, const std::vector<NodeAddr>& members,
                                 NodeAddr root_node) {
  SchemeComparison s;
  s.members = static_cast<int>(members.size());
  s.height = tree.height;
  s.tree_edges = tree.edges;
  s.btin = btin_cost(p, tree.height, tree.edges, s.members);
  // Distances from the root node along the BFS tree of the root switch (the BTIN's unpruned
  // paths): a member on a switch at depth k is k + 2 links away.
  std::vector<int> d;
  int depth = 0;
  for (const auto& m : members) {
    if (m == root_node) continue;
    const int k = tree.depth.at(static_cast<std::size_t>(m.sw));
    d.push_back(k + 2);
    depth = std::max(depth, k + 2);
  }
  s.unicast = unicast_cost(p, d);
  // The multicast worm follows the same tree: its links are the BTIN's switch links plus one
  // link per destination member and the root node's link.
  s.multicast = multicast_cost(p, d, tree.edges + s.members, depth);
  return s;
}

double theorem1_height(double f, int k, int nodes, int switches, int members) {
  const double base = f * k - static_cast<double>(nodes) / switches - 1.0;
  if (base <= 1.0) throw UserError(fmt::format("Theorem 1: f*k - p/q - 1 = {:.3f} must exceed 1", base));
  return std::log(static_cast<double>(members)) / std::log(base);
}

}  // namespace sanvp::barrier
