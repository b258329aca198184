#include "platform/barrier/paper_example.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace sanvp::barrier {

PaperExample paper_figure1() {
  PaperExample ex;
  const std::vector<std::pair<int, int>> links{{1, 4}, {1, 5}, {2, 4}, {2, 5}, {2, 6}, {2, 7},
                                               {0, 3}, {1, 3}, {3, 6}, {3, 7}, {4, 8}, {7, 8}};
  std::map<int, std::vector<int>> nbrs;
  for (auto [a, b] : links) { nbrs[a].push_back(b); nbrs[b].push_back(a); }
  auto port_to = [&](int s, int peer) {
    auto v = nbrs[s];
    std::sort(v.begin(), v.end());
    return static_cast<int>(std::find(v.begin(), v.end(), peer) - v.begin());
  };
  for (auto [a, b] : links) ex.graph.add_link(a, port_to(a, b), b, port_to(b, a));
  // (switch, members, non-members): nodes follow the links' ports.
  const int layout[9][2] = {{3, 1}, {0, 2}, {0, 2}, {2, 1}, {2, 0}, {3, 1}, {2, 0}, {2, 1}, {0, 4}};
  for (int s = 0; s < 9; ++s) {
    int port = static_cast<int>(nbrs[s].size());
    const int m = layout[s][0], nm = layout[s][1];
    if (s == 3) {  // root switch: root node (3,4), a non-member at 5, the second member at 6
      for (int p : {4, 5, 6}) ex.graph.add_node(3, p), ex.nodes.push_back({3, p});
      ex.members.push_back({3, 4});
      ex.members.push_back({3, 6});
      continue;
    }
    for (int i = 0; i < m; ++i, ++port) ex.graph.add_node(s, port), ex.nodes.push_back({s, port}), ex.members.push_back({s, port});
    for (int i = 0; i < nm; ++i, ++port) ex.graph.add_node(s, port), ex.nodes.push_back({s, port});
  }
  return ex;
}

}  // namespace sanvp::barrier
