// Source routes for every node pair. up*/down* (Autonet, Myrinet mapper): a BFS spanning tree from
// the root switch gives every switch a level; a link's "up" end is the switch nearer the root
// (lower level, lower id on a tie). A legal route climbs zero or more up links, then descends zero
// or more down links; it never turns up again, which makes the channel dependency graph acyclic.
// Among legal routes the shortest is chosen, ties broken by lowest output port at each hop.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/topo/topology.hpp"

namespace sanvp {

// Route bytes of every ordered node pair, stored flat (a 1024-node network has ~1M routes).
class RouteTable {
 public:
  RouteTable() = default;
  explicit RouteTable(int nodes) : n_(nodes), off_(static_cast<std::size_t>(nodes) * nodes + 1, 0) {}
  int nodes() const { return n_; }
  // Routes must be appended in (src, dst) row-major order.
  void append(int src, int dst, const std::uint8_t* b, std::size_t len);
  struct View {
    const std::uint8_t* data;
    std::size_t size;
    const std::uint8_t* begin() const { return data; }
    const std::uint8_t* end() const { return data + size; }
    std::uint8_t operator[](std::size_t i) const { return data[i]; }
  };
  View at(int src, int dst) const {
    const std::size_t i = static_cast<std::size_t>(src) * n_ + dst;
    return View{bytes_.data() + off_[i], off_[i + 1] - off_[i]};
  }
  std::vector<std::uint8_t> vec(int src, int dst) const { auto v = at(src, dst); return {v.begin(), v.end()}; }
  // Replaces one route (explicit overrides); rebuilds the flat store.
  void replace(int src, int dst, const std::vector<std::uint8_t>& route);
  std::size_t total_bytes() const { return bytes_.size(); }
  std::size_t memory_bytes() const { return bytes_.capacity() + off_.capacity() * sizeof(std::uint32_t); }

 private:
  int n_ = 0;
  std::vector<std::uint32_t> off_;
  std::vector<std::uint8_t> bytes_;
  std::size_t next_ = 0;
};

struct UpDownTree {
  int root = 0;
  std::vector<int> level;  // BFS level of each switch from the root
  // Traversing a link from switch `from` to switch `to` goes up.
  bool up(int from, int to) const { return level[to] < level[from] || (level[to] == level[from] && to < from); }
};

UpDownTree updown_tree(const Topology& t);
RouteTable updown_routes(const Topology& t);
// Unrestricted shortest paths (lowest port first): deadlock-prone on networks with cycles; used
// to demonstrate what the checker catches.
RouteTable shortest_routes(const Topology& t);

// The route from node `n` to itself: a U-turn out of its switch through the port it entered by
// (one route byte naming that port). It uses no switch-to-switch channel, so it adds no channel
// dependency. Myrinet switches allow it; so does the model (an input may be granted its own
// port's output, which is a separate link direction).
std::vector<std::uint8_t> self_route(const Topology& t, int n);

// Alternate routes between node pairs, besides the primary: other paths that are legal under
// the routing rule (up*/down*, or any path for unrestricted shortest routing) so that a set of
// up*/down* routes with their alternates stays deadlock-free, visit no switch twice and are at
// most `extra_hops` switch hops longer than the shortest legal path between the two switches.
// They are ranked by length, then by the switch-to-switch links they share with the primary
// (fewest first: a second trunk beats a detour that merges back), then by output ports, lowest
// first. Nodes on the same switch have none (the direct route is the only simple path).
// Candidates are searched per switch pair (at most kMaxCandidates each, shortest first) and
// cached.
class AlternateRoutes {
 public:
  static constexpr int kMaxCandidates = 64;
  AlternateRoutes(const Topology& t, bool updown, int extra_hops);
  // Up to `count` routes from node `src` to node `dst` (src != dst), none equal to `primary`.
  std::vector<std::vector<std::uint8_t>> routes(int src, int dst, RouteTable::View primary, int count);

 private:
  const std::vector<std::vector<std::uint8_t>>& candidates(int from_sw, int to_sw);
  const Topology& t_;
  std::vector<std::vector<PortEnd>> pm_;
  UpDownTree tree_;
  bool updown_;
  int extra_;
  std::vector<std::vector<std::vector<std::vector<std::uint8_t>>>> cache_;  // [from][to] -> switch paths
  std::vector<std::vector<char>> cached_;
};

// Follows `route` from node `src`; returns the node reached, or throws UserError naming `what`
// and the failing hop.
int walk_route(const Topology& t, const std::vector<std::vector<PortEnd>>& pm, int src, RouteTable::View route,
               const std::string& what);

std::string format_route(RouteTable::View r);

}  // namespace sanvp
