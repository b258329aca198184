// The spanning tree HSS runs on (FBS paper section 3.4): NICs are the leaves, switches the inner
// nodes. For any topology it is the up*/down* BFS tree of platform/topo/routing.hpp (levels from
// the routing root); each switch's parent is its lowest-id neighbour one BFS level nearer the
// root, so the tree is deterministic and every tree path is a legal up*/down* route. On a
// topology that is already a tree this is the topology itself.
//
// Levels follow the paper's convention, level 0 = the NICs at the bottom. For uneven trees a
// switch's level is its height: 1 + the largest level among its children (a switch with only
// NICs is level 1). That keeps Definition 2's order (every child subtree gathers before its
// parent and is distributed to after it) and makes m = the root's level + 1 the tree depth Eq. 10
// needs. Switches with no NIC below them are dropped, and while the root has no NIC and a single
// child subtree the root moves down to that child (they would only add single-member BBPs).
#pragma once
#include <cstdint>
#include <vector>

#include "platform/topo/routing.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::fbs {

struct SpanningTree {
  int root = -1;                            // switch id of the tree root
  int levels = 0;                           // m: levels including level 0 (NICs)
  std::vector<int> parent;                  // per switch: parent switch, -1 at the root or if dropped
  std::vector<int> level;                   // per switch: height level (>= 1), -1 if dropped
  std::vector<std::vector<int>> children;   // per switch: child switches, ascending id
  std::vector<std::vector<int>> nics;       // per switch: NICs attached, ascending id
  std::vector<int> smallest;                // per switch: smallest NIC below it (its leader for the parent)
  bool in_tree(int sw) const { return level[static_cast<std::size_t>(sw)] >= 0; }
  // Switches at level i, ascending id.
  std::vector<int> at_level(int i) const;
};

// The FBS spanning tree of `t` over the NICs `nics` (all topology nodes when empty).
SpanningTree spanning_tree(const Topology& t, const std::vector<int>& nics = {});

// Source routes that follow the tree only (up to the common ancestor, then down): what HSS's
// conflict-freedom (Theorem 2) assumes. They are legal up*/down* routes. Nodes outside the tree
// (not in `nics`) get their up*/down* route.
RouteTable tree_routes(const Topology& t, const SpanningTree& tree);

}  // namespace sanvp::fbs
