// The BTIN paper's running example (Figures 1-3): nine 8-port switches, 12 inter-switch links,
// 26 nodes, 14 members. The figure itself is not in the text, so this is a reconstruction that
// satisfies everything the text states: Figure 2's BTIN (root switch 3, children 0, 1, 6, 7;
// switch 1, a non-member, spans 4 and 5; switches 2 and 8 pruned), root node (3,4) with a second
// member on switch 3 at a higher port, and Figure 3: exactly three roots reach the minimum height
// 2, all with the same number of edges, and switch 3's tree is the one with two leaves (leaves
// counted on the deepest level, see btin_tree.hpp).
// Ports: links first, ascending neighbour id, from port 0; then the nodes.
#pragma once
#include <vector>

#include "platform/barrier/switch_graph.hpp"

namespace sanvp::barrier {

struct PaperExample {
  SwitchGraph graph{9, 8};
  std::vector<NodeAddr> members;
  std::vector<NodeAddr> nodes;
};

PaperExample paper_figure1();

}  // namespace sanvp::barrier
