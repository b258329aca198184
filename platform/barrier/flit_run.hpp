// BTIN barriers in the flit-level simulator on a random irregular network: real switches with
// BarrierUnits, up*/down* routes, and BarrierHosts (host_barrier.hpp) creating a group, running
// one barrier with every member arriving at the same time, and destroying the group, one group
// after another in one simulation. Each barrier is compared with
//   closed form  2*(t_s + (h+2)*(3*cp + ld) + (h+1)*(delay + sd))
//                (a 4-flit message is stored whole at every hop: 3 character periods plus the
//                wire per link; the unit's delay and the crossbar per switch; the endpoints add
//                no interface delay), and
//   model        FunctionalBtinNet with t_p = 3*cp + ld, t_r = delay + sd, which charges the
//                paper's interface delay t_r at both ends of each message: model - 4*t_r.
// After each BTIN barrier the same members run the unicast scheme with real worms on the
// up*/down* routes (8-byte payload): n-1 to the root node, then n-1 back, one start-up per
// message on the sending host; these share links and the root's link (contention included).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"

namespace sanvp {
class Network;
struct Topology;
}  // namespace sanvp

namespace sanvp::barrier {

struct FlitRunConfig {
  int nodes = 256, switches = 75, ports = 8;
  double f = 0.75;
  std::uint64_t seed = 1;         // network seed; groups come from the experiment's streams
  std::vector<int> sizes{2, 16, 64, 256};
  int groups = 3;                 // groups per size (runs 0..groups-1 of the experiment)
  bool every_member = true;       // every member runs Setup_Register (false: once per group)
};

struct FlitSample {
  int size = 0, run = 0, height = 0, fallbacks = 0;
  Time setup = 0;                 // group creation: first write sent to last answer
  Time flit = 0, closed = 0, model = 0;
  Time unicast = 0;               // the unicast scheme with real worms (contention included)
};

struct FlitRunResult {
  std::vector<FlitSample> samples;
  std::vector<std::string> errors;  // host protocol errors and mismatches
  std::uint64_t drops = 0;
  Time sim_end = 0;
  double wall_s = 0;
  double build_s = 0;  // network construction and up*/down* routes
};

// Declares `topo` on `net` (constructed on `pv`), builds it and installs up*/down* routes.
void build_updown_network(Network& net, const Topology& topo, ParamValues& pv);

// `pv` holds the fabric parameters (link.*, switch.*, barrier.*) and btin.t_s (host start-up).
FlitRunResult run_flit_barriers(ParamValues& pv, const FlitRunConfig& cfg);
std::string flit_table(const FlitRunConfig& cfg, const FlitRunResult& r);
nlohmann::json flit_json(const FlitRunConfig& cfg, const FlitRunResult& r);

}  // namespace sanvp::barrier
