// Topology generators: the network families of the papers sanvp reproduces.
//   single     one switch, nodes on its first ports
//   star       Clint's star: every host on one central switch (16 hosts in the prototype)
//   tree       FBS section 5.2: k-port switches in m levels (level 0 = NICs), one uplink per
//              switch, fanout children per switch (FBS Figure 2: ports=4 fanout=2 root_fanout=2 levels=4)
//   irregular  BTIN section 5.1: q switches, p nodes, k ports, connectivity f (fraction of ports
//              connected), random but seeded; always connected, no self or parallel links
//   mesh       2-D mesh of switches, `nodes` nodes per switch
//   tdma-a/b   TDMA thesis Appendix A: nodes 0,1 on switch 0, nodes 2,3 on switch 1, one trunk
//              (A) or two trunks (B)
#pragma once
#include <map>
#include <string>
#include <vector>

#include "platform/topo/topology.hpp"

namespace sanvp {

struct GenArg {
  std::string value;
  Origin where;  // where the argument was given (file:line:col or "command line")
};

struct GenRequest {
  std::string type;
  Origin where;  // of the request (its `type`)
  std::map<std::string, GenArg> args;
};

// Builds and validates the topology. Unknown arguments, bad values and infeasible requests throw
// UserError naming the argument's position.
Topology generate_topology(const GenRequest& req);
// One line per generator: type, arguments with defaults, meaning.
std::string generator_help();

}  // namespace sanvp
