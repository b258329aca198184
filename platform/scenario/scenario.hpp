// Scenario files: a topology (inline, from a file, or generated), routing, parameters, traffic,
// duration, seed, tracing, and per-node firmware/host programs. Relative input paths resolve
// against the scenario file's folder; output paths (waves) against the working directory.
// `--set key=value` overrides any value: keys starting with a scenario section (topology,
// routing, traffic, nodes, tracing, duration, seed, name, description, params) edit the document
// by dotted path (list items by index), any other key is a model parameter (as `sanvp params`).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "platform/host/nic_nodes.hpp"
#include "platform/sim/run.hpp"
#include "platform/topo/deadlock.hpp"
#include "platform/topo/routing.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp {

struct ExplicitRoute {
  int src = -1, dst = -1;
  std::vector<std::uint8_t> route;
  Origin where;
};

struct NodeProgram {
  int node = -1;
  std::string firmware;               // resolved image path (builtin:NAME too: platform/fw/builtin_firmware.hpp), empty if none
  std::string firmware_given;         // as written in the file
  std::string host_app;               // registered host application (platform/host/host_apps.hpp), empty if none
  std::vector<std::string> host_args;
  host::HostProgram program;          // set by commands that build scenarios in code (FBS): replaces host_app
  Origin where;
};

struct Scenario {
  std::string file;                   // as given
  std::string dir;                    // its folder, for relative paths
  std::string name, description;
  std::optional<std::uint64_t> seed;
  Topology topo;
  std::string routing = "up-down";    // up-down | shortest
  bool check_deadlock = true;
  Origin where_routing;
  std::vector<ExplicitRoute> routes;  // replace computed routes
  // Alternate routes handed to NIC firmware besides the primary (fw/routes.h route sets):
  // routing.alternates per node pair, at most routing.extra_hops longer than the shortest.
  int alternates = 0;
  int extra_hops = 1;
  std::vector<NodeProgram> programs;
  std::string vcd, trace, trace_window;
  YAML::Node doc;                     // the document after --set overrides
  std::vector<std::string> sets;      // the overrides, for the report
};

// Loads `file`, applies `sets`, puts parameters (params, traffic, duration, topology overrides)
// into `pv`. Throws UserError with file:line:column on any problem.
Scenario load_scenario(const std::string& file, const std::vector<std::string>& sets, ParamValues& pv);
// Computes the scenario's routes: the routing algorithm, then explicit overrides; with
// check_deadlock the channel dependency graph must be acyclic (else UserError with the cycle).
RouteTable scenario_routes(const Scenario& s, DeadlockReport* report = nullptr);
// The routes NIC firmware gets from node `src` to node `dst`, the primary (from `rt`) first,
// then up to s.alternates alternates (platform/topo/routing.hpp: AlternateRoutes); to itself the
// U-turn. For every ordered pair of `nodes` (NIC nodes), computed at once: with alternates the
// primary routes plus all alternates are checked for deadlock like the primary routes alone
// (UserError with the cycle if s.check_deadlock), else `report` (if given) describes them.
host::NodeRouteSource firmware_routes(const Scenario& s, std::shared_ptr<const RouteTable> rt, const std::vector<int>& nodes,
                                      DeadlockReport* report = nullptr);
// A RunSpec that builds the scenario's network and installs its routes; nodes with firmware
// become hosts with NICs (platform/host/nic_nodes.hpp) running their host applications.
RunSpec scenario_run_spec(const Scenario& s);
// Effective configuration for reports.
nlohmann::json scenario_json(const Scenario& s);

}  // namespace sanvp
