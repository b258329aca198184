// Bridge from the topology layer (platform/topo) to what the barrier code needs: the SwitchGraph
// of a Topology with the node-id <-> (switch, port) mapping, and the network's up*/down* routes
// from one switch to all others (the paths the unicast and multicast baselines use).
#pragma once
#include <map>
#include <vector>

#include "platform/barrier/switch_graph.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::barrier {

struct TopoGraph {
  SwitchGraph graph;
  std::vector<NodeAddr> node_addr;   // topology node id -> (switch, port)
  std::map<NodeAddr, int> node_id;   // (switch, port) -> topology node id
  explicit TopoGraph(const Topology& t);
};

// Shortest legal up*/down* paths from switch `from` to every switch, by BFS over (switch, phase)
// states with neighbours scanned in port order, as platform/topo/routing.cpp does for the route
// table. The BFS predecessors form a tree over states, so the union of the paths to any set of
// switches is a tree: the switch-based multicast of the multicast scheme follows it.
struct UpDownPaths {
  int from = -1;
  std::vector<int> dist;                        // links from `from` to each switch
  std::vector<std::vector<std::pair<int, int>>> hops;  // (switch, output port) of each path, in order
};
UpDownPaths updown_paths(const Topology& t, int from);

// The topology layer's `irregular` generator (BTIN Section 5.1): q switches, p nodes, k ports,
// connectivity f. Throws UserError for infeasible requests (e.g. f too small to connect).
Topology irregular_network(int nodes, int switches, int ports, double f, std::uint64_t seed);

}  // namespace sanvp::barrier
