// NIC nodes of a scenario run: on the nodes that name a firmware image, a host (memory, PCI bus,
// application thread) and a nic::Nic running that image replace the test endpoint, wired to the
// node's switch port exactly as NicNetwork wires its hosts (the fabric's Network creates the
// links; flow control is validated against them). Before the run, every NIC gets the run's
// route table (the scenario's: up*/down* by default) at its image's g_routes/g_nodes symbols,
// holding the routes to the other NIC nodes, and its host starts the node's application.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/host/host_apps.hpp"
#include "platform/sim/run.hpp"

namespace sanvp::host {

struct NicNodeSpec {
  int node = -1;
  std::string firmware;   // image file (add_lanai_firmware output)
  std::string app;        // registered host application; empty = none (idle)
  std::vector<std::string> args;
};

// Creates the hosts and NICs on `net` (before Network::build); the specs' applications must
// have passed check_apps. Throws UserError for an unusable image.
std::unique_ptr<RunAgents> make_nic_nodes(Network& net, ParamValues& pv, std::uint64_t seed, const std::vector<NicNodeSpec>& specs);

}  // namespace sanvp::host
