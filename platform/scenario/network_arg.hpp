// The TOPO argument of the protocol commands (`sanvp fbs`, `sanvp tdma`): a topology file, a
// scenario file (its topology, routes and NIC nodes) or a generator spec as `sanvp topo gen`
// takes it ("tree ports=4 fanout=2 root_fanout=2 levels=4" = FBS Figure 2).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/topo/routing.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp {

struct NetworkArg {
  std::string name;        // topology name, else the argument
  Topology topo;
  RouteTable routes;       // the routes a run uses: the scenario's, else up*/down*
  std::string routing;     // what `routes` are ("up-down", "shortest", "tree")
  std::vector<int> nics;   // U: a scenario's NIC nodes if it has any, else every node
  nlohmann::json source;   // how it was given, for reports
};

// `arg` names an existing file, or a generator type with `gen_args` (key=value). Errors are
// UserErrors with file:line:col (files) or the argument (generators).
NetworkArg load_network_arg(const std::string& arg, const std::vector<std::string>& gen_args);

}  // namespace sanvp
