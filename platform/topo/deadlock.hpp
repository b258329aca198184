// Deadlock check of a route set (Dally and Seitz): the channels are the switch output links;
// a worm holding channel c while its header requests channel c' adds the dependency c -> c'.
// A wormhole network with these routes can deadlock only if the channel dependency graph has a
// cycle. The checker either proves the graph acyclic or returns one cycle with, for every edge,
// a route that creates it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/topo/routing.hpp"

namespace sanvp {

struct DependencyEdge {
  int from_sw, from_port;  // held channel: output port of a switch
  int to_sw, to_port;      // requested channel
  int src, dst;            // a route that creates this dependency
};

struct DeadlockReport {
  bool acyclic = true;
  std::size_t channels = 0;       // switch-to-switch channels used by some route
  std::size_t dependencies = 0;   // distinct edges
  std::vector<DependencyEdge> cycle;  // empty when acyclic
  std::string describe(const Topology& t) const;  // multi-line, printed by tools
};

// A route besides the route table's (an alternate handed to firmware).
struct ExtraRoute {
  int src, dst;
  std::vector<std::uint8_t> route;
};

// Validates every route (throws UserError on a route that leaves the network or ends at the
// wrong node) and checks the dependency graph of the table's routes plus `extra`.
DeadlockReport check_deadlock(const Topology& t, const RouteTable& routes, const std::vector<ExtraRoute>& extra = {});

}  // namespace sanvp
