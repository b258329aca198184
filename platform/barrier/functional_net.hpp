// FunctionalBtinNet: a BTIN network reduced to what barriers need, to check that group setup
// and the barrier rules synchronize correctly before the switch model integrates the unit:
// one BarrierCore per switch (the real rules and register file, finite registers), links and
// member nodes from a SwitchGraph, and the paper's cost model per hop (no contention).
//
// A message costs t_s + t_r to leave a node, t_p per link, t_r per switch and t_r into a node
// (L(d) = t_s + d*t_p + (d+1)*t_r end to end). A switch without a free register for a group has
// it in a node's memory (group_setup.hpp: deploy): a message of that group entering the switch
// goes to that node (t_r + t_p + t_r), is handled there in software by the same rules, and each
// resulting message costs a start-up t_s and goes back through the switch (t_r + t_p + t_r).
// Events at the same time are processed in a seeded random order, so a test can show that the
// result does not depend on it.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "hw/barrier/barrier_core.hpp"
#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/latency_model.hpp"

namespace sanvp::barrier {

class FunctionalBtinNet {
 public:
  // `registers[s]`: barrier registers of switch s.
  FunctionalBtinNet(const SwitchGraph& g, std::vector<int> registers, const LatencyParams& p);

  // Sets up a group: config writes into the switches; exhaustion falls back to node memory.
  Deployment create(const GroupPlan& plan);
  void destroy(const GroupPlan& plan);

  struct Result {
    Time latency = 0;              // last member released (members arrive at `arrival`)
    Time root_notified = 0;
    std::uint64_t links = 0;       // links traversed
    std::uint64_t software_messages = 0;  // handled by a node-memory register
    std::map<NodeAddr, Time> released;    // every member exactly once
  };
  // Runs one barrier episode of every listed group at once. `arrival[i][m]`: when member m of
  // group i arrives (missing: time 0). Throws SimError on any protocol violation: a drop, a
  // member released twice or before every member arrived, a message to a non-member.
  std::vector<Result> run(const std::vector<const GroupPlan*>& groups,
                          const std::vector<std::map<NodeAddr, Time>>& arrival, std::uint64_t seed);

  const BarrierCore& core(int sw) const { return cores_.at(static_cast<std::size_t>(sw)); }

 private:
  struct Event;
  struct GroupState;
  void emit(GroupState& gs, int sw, int port, std::uint16_t raw, Time t);
  void handle_at_switch(GroupState& gs, int sw, int port, std::uint16_t raw, Time t);
  void push(Time t, int kind, int group, int sw, int port, std::uint16_t raw);
  std::vector<GroupState> start_groups(const std::vector<const GroupPlan*>& groups, const std::vector<std::map<NodeAddr, Time>>& arrival);
  void handle_in_software(GroupState& gs, const Event& e);
  void handle_at_node(GroupState& gs, const Event& e);
  std::vector<Result> results(std::vector<GroupState>& st);

  const SwitchGraph& g_;
  LatencyParams p_;
  std::vector<BarrierCore> cores_;
  std::map<std::pair<int, int>, std::unique_ptr<BarrierCore>> memory_;  // (gid, switch) -> soft register
  std::map<int, Deployment> deployments_;                                  // gid -> placement
  std::vector<Event>* queue_ = nullptr;
  std::uint64_t seq_rng_ = 0;
};

}  // namespace sanvp::barrier
