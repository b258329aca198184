// The paper's analytical model of barrier cost (Section 5.1), for BTIN, the unicast scheme and
// the multicast scheme. One message over d links costs
//     L(d) = t_s + d*t_p + (d+1)*t_r
// (start-up, d link delays, and d-1 switches plus the two network interfaces, whose delay the
// paper takes equal to a switch's). Contention is not modelled, as in the paper.
//
//   BTIN      two messages' worth: REDUCE up the tree merged at every switch, DISTRIBUTE down;
//             d = h + 2 (h: BTIN height).                       latency 2*L(h+2)
//   unicast   every other member sends a REDUCE to the root node, the root node then sends one
//             unicast per member (2n start-ups, Table 2).
//   multicast reduction as unicast, distribution as one switch-based multicast over the BFS
//             tree from the root switch (n+1 start-ups).
// What the paper leaves open (docs/btin.md): how the n reduction messages share the root node.
// Here the root's interface handles them one at a time, `t_root` each, in arrival order, and
// the unicast root sends its n-1 distribution messages back to back, one start-up each,
// farthest member first.
#pragma once
#include <cstdint>
#include <vector>

#include "platform/barrier/btin_tree.hpp"
#include "hw/base/params.hpp"
#include "platform/barrier/latency_model_params.hpp"
#include "hw/base/time.hpp"

namespace sanvp::barrier {

// LatencyParams {t_s, t_p, t_r, t_root} (start-up, link propagation, switch and interface delay,
// root interface time per reduction message): latency_model.params.yaml.

Time message_latency(const LatencyParams& p, int d);

struct SchemeCost {
  Time latency = 0;
  std::uint64_t links = 0;  // links traversed by all messages of one barrier
  int startups = 0;
};

// BTIN of the given height and switch-to-switch edges, n members.
SchemeCost btin_cost(const LatencyParams& p, int height, int tree_edges, int members);
// `d`: distance in links from the root node to every other member node.
SchemeCost unicast_cost(const LatencyParams& p, std::vector<int> d);
// `mc_links`: links of the multicast tree (switch links + member links), `mc_depth`: its longest
// root-node-to-member path in links.
SchemeCost multicast_cost(const LatencyParams& p, std::vector<int> d, int mc_links, int mc_depth);

// All three for a group on a switch graph: the BTIN from group setup, distances along the BFS
// tree from the root switch (the switch-based multicast uses the same BFS tree, unpruned paths).
struct SchemeComparison {
  int members = 0, height = 0, tree_edges = 0;
  SchemeCost btin, unicast, multicast;
};
SchemeComparison compare_schemes(const LatencyParams& p, const Btin& tree, const std::vector<NodeAddr>& members,
                                 NodeAddr root_node);

// Theorem 1: asymptotic average BTIN height log_(f*k - p/q - 1) n.
double theorem1_height(double f, int k, int nodes, int switches, int members);

}  // namespace sanvp::barrier
