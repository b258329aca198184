// Group setup for BTIN barriers (paper Section 3.1, Setup_Register): every member node computes,
// on its own and from the same inputs (topology, member list, GID), the root switch, the root
// node, the BTIN and the barrier register contents. Only the representative member node of each
// member switch (the member on its lowest port) writes: its own switch's register, and on behalf
// of the non-member intermediate switches below it that are reached without passing a member
// switch, a request to a node of that switch to write theirs.
//
// Register contents of a BTIN switch s (hw/barrier/config.hpp):
//   P = port towards the parent switch; for the root switch, the root node's port;
//   C = P + ports towards child switches + ports of the member nodes on s.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hw/barrier/config.hpp"
#include "platform/barrier/btin_tree.hpp"

namespace sanvp::barrier {

struct RegisterWrite {
  int sw = -1;
  ConfigCommand cmd;           // ALLOC with GID, P and C
  NodeAddr writer;             // node that sends the config packet into sw ({-1,-1}: none attached)
  NodeAddr requested_by;       // representative that computed it (== writer for member switches)
  bool remote = false;         // non-member intermediate switch, set up by request
};

struct LocalSetup {
  bool representative = false;  // false: this member writes nothing
  int root = -1;
  NodeAddr root_node;
  std::optional<RegisterWrite> own;
  std::vector<RegisterWrite> remote;  // requests to nodes of non-member descendants
};

struct GroupPlan {
  std::uint8_t gid = 0;
  int root = -1;
  NodeAddr root_node;
  Btin tree;
  std::vector<RootCandidate> candidates;
  std::vector<NodeAddr> members;       // sorted
  std::vector<RegisterWrite> writes;   // one per BTIN switch, ascending switch id
  const RegisterWrite& write_for(int sw) const;
};

// Setup_Register(S, M, s_r, m_r, s_l, m_l, GID) run by member `local`. Throws UserError for bad
// member lists (unknown node, duplicate, fewer than 2 members, members not connected).
LocalSetup setup_register(const SwitchGraph& g, const std::vector<NodeAddr>& members, NodeAddr local,
                          std::uint8_t gid, LeafRule rule = LeafRule::DeepestLevel);

// The whole group's setup: every member's setup_register merged. Throws SimError if two members
// disagree or a BTIN switch is written twice or not at all (the algorithm's invariant).
// EveryMember runs Setup_Register from scratch for every member (the distributed algorithm as
// is); Representatives computes the root selection once and runs steps 2-6 for the
// representatives only (same result, for large experiments: 1024 members x 300 BFS trees each
// would dominate the run time).
enum class PlanCheck { EveryMember, Representatives };
GroupPlan plan_group(const SwitchGraph& g, const std::vector<NodeAddr>& members, std::uint8_t gid,
                     LeafRule rule = LeafRule::DeepestLevel, PlanCheck check = PlanCheck::EveryMember);

// Register placement after the writes were tried: a switch without a free register keeps the
// group's register in the memory of a node instead (slower: every message of the group through
// that switch takes a detour via the node). Member switch: its representative member node;
// non-member switch: the node asked to write it, or the requesting representative if the switch
// has no node.
struct Placement {
  int sw = -1;
  bool in_switch = true;
  int reg = -1;            // register index when in_switch
  NodeAddr memory_node;    // when !in_switch
};
struct Deployment {
  std::vector<Placement> placements;  // same order as plan.writes
  int fallbacks = 0;
  std::string report() const;         // one line per fallback
  const Placement& at(int sw) const;
};

// Issues every write through `write` (the config packet's effect: a BarrierCore::configure or a
// switch model) and places the register in a node's memory where the switch answered FULL.
using ConfigWriter = std::function<ConfigResponse(int sw, NodeAddr writer, const ConfigCommand& cmd)>;
Deployment deploy(const GroupPlan& plan, const ConfigWriter& write);
// Releases the group (MPI_Finalize-style teardown): RELEASE for every register held in a switch.
// Throws SimError if a switch does not find the group.
void teardown(const GroupPlan& plan, const Deployment& dep, const ConfigWriter& write);

}  // namespace sanvp::barrier
