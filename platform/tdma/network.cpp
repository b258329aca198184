#include "platform/tdma/network.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::tdma {
namespace {

// Link names in table order: each node's two directions (as the thesis's R<j>_o, R<j>_in), then
// the switch-to-switch directions by switch and port.
std::vector<std::string> link_names(const Topology& t, const std::vector<std::vector<PortEnd>>& pm) {
  std::vector<std::string> v;
  for (const auto& n : t.nodes) {
    v.push_back(fmt::format("n{}.out", n.id));
    v.push_back(fmt::format("sw{}.p{}.out", n.sw, n.port));
  }
  for (std::size_t s = 0; s < pm.size(); ++s)
    for (std::size_t p = 0; p < pm[s].size(); ++p)
      if (pm[s][p].kind == PortEnd::Switch) v.push_back(fmt::format("sw{}.p{}.out", s, p));
  return v;
}

Path make_path(const TdmaNetwork& net, const std::vector<std::vector<PortEnd>>& pm, const std::map<std::string, int>& id, int src,
               int dst, std::vector<std::uint8_t> route) {
  Path p;
  for (const auto& l : route_link_names(net.topo, pm, src, dst, route)) p.links.push_back(id.at(l));
  p.route = std::move(route);
  return p;
}

}  // namespace

const std::vector<Path>& TdmaNetwork::candidates(int src, int dst) const {
  const auto it = paths.find({src, dst});
  if (it == paths.end()) throw UserError(fmt::format("tdma: no routes were computed for n{} -> n{}", src, dst));
  return it->second;
}

std::vector<std::string> route_link_names(const Topology& topo, const std::vector<std::vector<PortEnd>>& pm, int src, int dst,
                                          const std::vector<std::uint8_t>& route) {
  const RouteTable::View v{route.data(), route.size()};
  const int reached = walk_route(topo, pm, src, v, fmt::format("route n{}->n{} [{}]", src, dst, format_route(v)));
  if (reached != dst) throw UserError(fmt::format("route n{}->n{} [{}] reaches n{}", src, dst, format_route(v), reached));
  std::vector<std::string> out{fmt::format("n{}.out", src)};
  int sw = topo.nodes.at(static_cast<std::size_t>(src)).sw;
  for (const std::uint8_t port : route) {
    out.push_back(fmt::format("sw{}.p{}.out", sw, port));
    sw = pm[static_cast<std::size_t>(sw)][port].id;  // walked above: only the last hop leaves for a node
  }
  return out;
}

TdmaNetwork tdma_network(const std::string& name, const Topology& topo, const RouteTable& routes, const std::string& routing,
                         const std::vector<Stream>& streams, const RouteChoice& choice) {
  TdmaNetwork net;
  net.name = name;
  net.topo = topo;
  net.routing = routing;
  const auto pm = topo.port_map();
  net.links = link_names(topo, pm);
  std::map<std::string, int> id;
  for (std::size_t i = 0; i < net.links.size(); ++i) id[net.links[i]] = static_cast<int>(i);
  AlternateRoutes alt(net.topo, routing != "shortest", choice.extra_hops);
  for (const Stream& s : streams) {
    auto& c = net.paths[{s.src, s.dst}];
    if (!c.empty()) continue;
    c.push_back(make_path(net, pm, id, s.src, s.dst, routes.vec(s.src, s.dst)));
    for (auto& r : alt.routes(s.src, s.dst, routes.at(s.src, s.dst), choice.alternates))
      c.push_back(make_path(net, pm, id, s.src, s.dst, std::move(r)));
  }
  return net;
}

}  // namespace sanvp::tdma
