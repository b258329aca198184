// SwitchGraph: the minimal view of a network that BTIN group setup needs: switches with numbered
// ports, switch-to-switch links (port to port) and which ports have a node attached. The
// topology layer (platform/topo) fills one of these from its model; tests build them by hand.
#pragma once
#include <string>
#include <vector>

namespace sanvp::barrier {

// A node is (switch, port), as in the paper's Section 2.1.
struct NodeAddr {
  int sw = -1;
  int port = -1;
  friend bool operator==(const NodeAddr& a, const NodeAddr& b) { return a.sw == b.sw && a.port == b.port; }
  friend bool operator<(const NodeAddr& a, const NodeAddr& b) { return a.sw != b.sw ? a.sw < b.sw : a.port < b.port; }
};
std::string to_string(const NodeAddr& n);

struct SwitchLink {
  int port;       // port on this switch
  int peer;       // switch at the other end
  int peer_port;  // port on that switch
};

class SwitchGraph {
 public:
  SwitchGraph(int switches, int ports);

  // Throws UserError for out-of-range or already used ports and self links.
  void add_link(int a, int port_a, int b, int port_b);
  void add_node(int sw, int port);

  int switches() const { return static_cast<int>(links_.size()); }
  int ports() const { return ports_; }
  // Links of switch s, sorted by port.
  const std::vector<SwitchLink>& links(int s) const { return links_.at(static_cast<std::size_t>(s)); }
  // Ports of switch s with a node attached, ascending.
  const std::vector<int>& nodes(int s) const { return nodes_.at(static_cast<std::size_t>(s)); }
  bool has_node(NodeAddr n) const;
  bool connected() const;
  int link_count() const;

 private:
  void claim(int s, int port);
  int ports_;
  std::vector<std::vector<SwitchLink>> links_;
  std::vector<std::vector<int>> nodes_;
  std::vector<std::vector<char>> used_;
};

}  // namespace sanvp::barrier
