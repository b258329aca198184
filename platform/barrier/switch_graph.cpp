#include "platform/barrier/switch_graph.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hw/base/error.hpp"

namespace sanvp::barrier {

std::string to_string(const NodeAddr& n) { return fmt::format("({},{})", n.sw, n.port); }

SwitchGraph::SwitchGraph(int switches, int ports) : ports_(ports) {
  if (switches < 1) throw UserError(fmt::format("switch graph: {} switches", switches));
  if (ports < 2 || ports > 64) throw UserError(fmt::format("switch graph: {} ports per switch (must be 2..64)", ports));
  links_.resize(static_cast<std::size_t>(switches));
  nodes_.resize(static_cast<std::size_t>(switches));
  used_.assign(static_cast<std::size_t>(switches), std::vector<char>(static_cast<std::size_t>(ports), 0));
}

void SwitchGraph::claim(int s, int port) {
  if (s < 0 || s >= switches()) throw UserError(fmt::format("switch graph: no switch {}", s));
  if (port < 0 || port >= ports_) throw UserError(fmt::format("switch graph: switch {} has no port {}", s, port));
  auto& u = used_[static_cast<std::size_t>(s)][static_cast<std::size_t>(port)];
  if (u) throw UserError(fmt::format("switch graph: port {} of switch {} is used twice", port, s));
  u = 1;
}

void SwitchGraph::add_link(int a, int port_a, int b, int port_b) {
  if (a == b) throw UserError(fmt::format("switch graph: link from switch {} to itself", a));
  claim(a, port_a);
  claim(b, port_b);
  auto put = [&](int s, SwitchLink l) {
    auto& v = links_[static_cast<std::size_t>(s)];
    v.insert(std::upper_bound(v.begin(), v.end(), l, [](const SwitchLink& x, const SwitchLink& y) { return x.port < y.port; }), l);
  };
  put(a, {port_a, b, port_b});
  put(b, {port_b, a, port_a});
}

void SwitchGraph::add_node(int sw, int port) {
  claim(sw, port);
  auto& v = nodes_[static_cast<std::size_t>(sw)];
  v.insert(std::upper_bound(v.begin(), v.end(), port), port);
}

bool SwitchGraph::has_node(NodeAddr n) const {
  if (n.sw < 0 || n.sw >= switches()) return false;
  const auto& v = nodes(n.sw);
  return std::binary_search(v.begin(), v.end(), n.port);
}

bool SwitchGraph::connected() const {
  std::vector<char> seen(static_cast<std::size_t>(switches()), 0);
  std::vector<int> stack{0};
  seen[0] = 1;
  int n = 1;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    for (const auto& l : links(s))
      if (!seen[static_cast<std::size_t>(l.peer)]) { seen[static_cast<std::size_t>(l.peer)] = 1; ++n; stack.push_back(l.peer); }
  }
  return n == switches();
}

int SwitchGraph::link_count() const {
  int n = 0;
  for (const auto& v : links_) n += static_cast<int>(v.size());
  return n / 2;
}

}  // namespace sanvp::barrier
