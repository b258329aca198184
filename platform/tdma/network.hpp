// What the TDMA scheduler needs of a network: its directed links, named as the simulation names
// channels (n<j>.out: node j -> its switch; sw<i>.p<k>.out: out of port k of switch i), and for
// every node pair a stream uses, its candidate source routes, first choice first (the network's
// routes, then platform/topo AlternateRoutes: legal under the same routing rule, fewest
// switch-to-switch links shared with the first choice first).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "platform/tdma/stream.hpp"
#include "platform/topo/routing.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::tdma {

struct Path {
  std::vector<std::uint8_t> route;  // route bytes from the source node's switch
  std::vector<int> links;           // link ids, source to destination
};

struct TdmaNetwork {
  std::string name;
  Topology topo;
  std::string routing;                                   // what the first-choice routes are ("up-down", ...)
  std::vector<std::string> links;                        // link id -> name; per node n<j>.out then its switch's port to it, then trunks
  std::map<std::pair<int, int>, std::vector<Path>> paths;  // (src, dst) -> candidate routes, first choice first
  const std::vector<Path>& candidates(int src, int dst) const;
};

struct RouteChoice {
  int alternates = 3;   // tdma.alternates
  int extra_hops = 1;   // tdma.extra_hops
};

// Candidate routes for every (src, dst) of `streams`: routes.at(src, dst) first, then up to
// `choice.alternates` alternates (legal under up*/down* unless `routing` is "shortest").
TdmaNetwork tdma_network(const std::string& name, const Topology& topo, const RouteTable& routes, const std::string& routing,
                         const std::vector<Stream>& streams, const RouteChoice& choice);

// The names of the directed links `route` takes from node `src` (n<src>.out first). Throws
// UserError when the route does not lead from `src` to `dst` (walk_route's message).
std::vector<std::string> route_link_names(const Topology& topo, const std::vector<std::vector<PortEnd>>& pm, int src, int dst,
                                          const std::vector<std::uint8_t>& route);

}  // namespace sanvp::tdma
