// BTIN experiments (paper Section 5): random irregular networks from the topology layer's
// `irregular` generator, random member groups, and per run the synchronization latency and the
// traffic (links traversed) of BTIN, the unicast scheme and the multicast scheme.
//
//   BTIN       measured on FunctionalBtinNet: one real BarrierCore per switch, the registers
//              written by group setup (Setup_Register), the paper's per-hop costs, no contention.
//   unicast    closed form of latency_model.hpp on the network's up*/down* paths: n-1 REDUCE
//              unicasts to the root node, serialized there (t_root each), then n-1 unicasts back
//              to back (one start-up each).
//   multicast  the same reduction, then one switch-based multicast worm from the root node along
//              the union of the up*/down* paths to the member switches (a tree).
// Every member arrives at time 0 (as in the paper). Run r uses network seed `seed + r` (the same
// networks for every group size) and a member group drawn from its own stream.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/barrier/latency_model.hpp"
#include "platform/barrier/switch_graph.hpp"

namespace sanvp {
struct Topology;
}

namespace sanvp::barrier {

struct TopoGraph;

struct ExperimentConfig {
  int nodes = 256, switches = 75, ports = 8;
  double f = 0.75;
  std::vector<int> sizes{2, 4, 8, 16, 32, 64, 128, 256};
  int runs = 100;
  std::uint64_t seed = 1;
  int registers = 8;  // barrier registers per switch
  LatencyParams lat;
};

struct RunSample {
  int size = 0, run = 0;
  std::uint64_t net_seed = 0;
  int height = 0, tree_edges = 0, tree_switches = 0, member_switches = 0;
  int updown_depth = 0;  // longest up*/down* path root node -> member, links
  int mc_links = 0;      // links of the multicast tree
  Time btin = 0, unicast = 0, multicast = 0;
  std::uint64_t links_btin = 0, links_unicast = 0, links_multicast = 0;
};

struct Stat { double mean = 0, min = 0, max = 0, sd = 0; };
struct SizeSummary {
  int size = 0;
  Stat btin_us, unicast_us, multicast_us, links_btin, links_unicast, links_multicast, height;
  double theorem1 = 0;  // Theorem 1's asymptotic height for this size
};

struct ExperimentResult {
  ExperimentConfig cfg;
  std::vector<RunSample> samples;   // size-major, then run
  std::vector<SizeSummary> summary;
  std::string config_error;         // the generator refused the configuration (e.g. f too small)
};

// One run: network `net_seed`, a random group of `size` members. Throws SimError if the BTIN
// latency or traffic measured on the functional network disagrees with the closed form
// 2*L(h+2), 2*(edges+n) (an independent check of the model on every run).
ExperimentResult run_experiment(const ExperimentConfig& cfg);

// One group on one network: BTIN on FunctionalBtinNet, the baselines on up*/down* paths
// (`tie_seed`: order of simultaneous events in the functional network).
RunSample measure_group(const ExperimentConfig& cfg, const Topology& topo, const TopoGraph& tg,
                        const std::vector<NodeAddr>& members, std::uint64_t tie_seed);

// The member group of `run` for `size` (seeded stream "btin.group.<size>.<run>").
std::vector<NodeAddr> random_group(const TopoGraph& tg, int size, std::uint64_t seed, int run);

std::string experiment_csv(const ExperimentResult& r);
nlohmann::json experiment_json(const ExperimentResult& r);
std::string experiment_table(const ExperimentResult& r);

}  // namespace sanvp::barrier
