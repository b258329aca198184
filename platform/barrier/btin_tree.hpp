// BTIN construction (paper Section 3.1): a BFS tree around a root switch, scanning switches in
// order of switch id, with non-member leaf switches pruned until none is left; and the choice of
// the root switch among the member switches (minimum height, then fewest edges, then fewest
// leaves, then lowest id).
//
// BFS rule, made exact so every member computes the same tree: level by level; the switches of a
// level are scanned in ascending id and each adopts its not yet reached neighbours, so a switch's
// parent is its lowest-id neighbour one level up; between parallel links the lowest port of the
// parent is used.
#pragma once
#include <vector>

#include "platform/barrier/switch_graph.hpp"

namespace sanvp::barrier {

struct BfsTree {
  int root = -1;
  std::vector<int> depth;      // -1: not reached
  std::vector<int> parent;     // -1: root or not reached
  std::vector<int> up_port;    // port of s towards its parent
  std::vector<int> down_port;  // port of the parent towards s
};
BfsTree bfs_tree(const SwitchGraph& g, int root);

// "Leaves" in the root tie-break. The paper's example (Figure 3(b): "the second BFS tree with two
// leaves", which is Figure 2's tree) only adds up if leaves are the switches on the deepest level:
// Figure 2's tree has five childless switches but two at depth 2. DeepestLevel is therefore the
// default; Childless is the textbook reading (docs/btin.md).
enum class LeafRule { DeepestLevel, Childless };

struct Btin {
  int root = -1;
  std::vector<char> in_tree;
  std::vector<char> member;               // member switches (have a member node)
  std::vector<int> depth, parent, up_port, down_port;
  std::vector<std::vector<int>> children;  // in-tree children, ascending id
  int height = 0;   // deepest in-tree switch
  int edges = 0;    // in-tree switch-to-switch links
  int childless = 0, deepest = 0;
  int leaves(LeafRule r) const { return r == LeafRule::DeepestLevel ? deepest : childless; }
  std::vector<int> switches() const;  // in-tree switches, ascending id
};

// BFS around `root`, then prune non-member leaves. `member[s]` marks member switches.
Btin build_btin(const SwitchGraph& g, int root, const std::vector<char>& member);

struct RootCandidate {
  int sw;
  int height, edges, leaves;
};
struct RootSelection {
  int root = -1;
  std::vector<RootCandidate> candidates;  // every member switch, ascending id
  Btin tree;
};
// Throws UserError if no member switch is given or members are not all connected.
RootSelection select_root(const SwitchGraph& g, const std::vector<char>& member, LeafRule rule = LeafRule::DeepestLevel);

}  // namespace sanvp::barrier
