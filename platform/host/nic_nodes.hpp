// NIC nodes of a scenario run: on the nodes that name a firmware image, a host (memory, PCI bus,
// application thread) and a nic::Nic running that image replace the test endpoint, wired to the
// node's switch port exactly as NicNetwork wires its hosts (the fabric's Network creates the
// links; flow control is validated against them). Before the run, every NIC gets the run's
// routes (the scenario's: up*/down* by default, with alternates if asked for) in its image's
// route tables (fw/routes.h), holding the routes to the NIC nodes and the U-turn to itself,
// and its host starts the node's application.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "platform/host/host_apps.hpp"
#include "platform/sim/run.hpp"

namespace sanvp::host {

// A host program other than a registered application: a protocol's loader or driver (FBS), run
// as the node's host thread. It fills `result` (phase while it runs, done and finished at the
// end) like an application.
using HostProgram = std::function<void(Host& host, AppResult& result)>;

struct NicNodeSpec {
  int node = -1;
  std::string firmware;   // image file (add_lanai_firmware output)
  std::string app;        // registered host application; empty = none (idle)
  std::vector<std::string> args;
  HostProgram program;    // instead of `app` when set (`app` then names it in reports)
};

// The routes NIC node `src` gets to NIC node `dst` (src == dst: to itself), the primary first.
using NodeRouteSource = std::function<std::vector<std::vector<std::uint8_t>>(int src, int dst)>;

// Creates the hosts and NICs on `net` (before Network::build); the specs' applications must
// have passed check_apps. Throws UserError for an unusable image. `routes` gives each NIC's
// route sets (a scenario's, with alternates); without it a NIC gets the network's route to
// every other NIC node and the U-turn to itself.
std::unique_ptr<RunAgents> make_nic_nodes(Network& net, ParamValues& pv, std::uint64_t seed, const std::vector<NicNodeSpec>& specs,
                                          NodeRouteSource routes = {});

}  // namespace sanvp::host
