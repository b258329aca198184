// BarrierHosts: the host side of BTIN barriers in the flit-level simulation (real switches with
// BarrierUnits, real links). It plays the member hosts of any number of process groups:
//
//   create_group   every member runs Setup_Register on its own (group_setup.hpp); each
//                  representative sends a configuration packet (ALLOC) into its switch, and for
//                  every non-member intermediate switch below it an ordinary point-to-point worm
//                  to a node of that switch, which then writes that switch's register. The group
//                  is ready when every write is answered. A switch answering FULL keeps the
//                  group in its spill table (hw/switch) and sends the group's messages to the
//                  writer node, which runs the register in software (a BarrierCore in its
//                  memory) and answers with routed barrier worms: the paper's fallback.
//   barrier        a member arrives: it sends a REDUCE into its switch (the root node instead
//                  waits for the merged REDUCE and then sends the DISTRIBUTE); it is released
//                  when the DISTRIBUTE reaches it. Arrivals before the group is ready wait for it.
//   destroy_group  the same writers send RELEASE (remote ones again on request by worm).
//
// Every message a host sends costs a software start-up (`startup`, the paper's t_s) on that
// host's processor, one after another. Protocol violations (a release before every member
// arrived, a second release, an unexpected message, a refused write) are collected in errors().
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/barrier/barrier_core.hpp"
#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/topo_graph.hpp"
#include "platform/sim/network.hpp"

namespace sanvp::barrier {

struct HostBarrierConfig {
  Time startup = 2 * kUs;            // software start-up per message a host sends (t_s)
  std::uint32_t request_payload = 24;  // bytes of a remote-setup request worm
  // EveryMember: each member runs Setup_Register itself and all must agree (the distributed
  // algorithm, O(members x member switches) BFS trees); Representatives: computed once.
  PlanCheck plan = PlanCheck::EveryMember;
};

class BarrierHosts : public sc_core::sc_module {
 public:
  using Done = std::function<void(Time)>;

  struct Group {
    GroupPlan plan;
    std::vector<int> members;         // node ids
    Time requested = 0, ready_at = kNever, destroyed_at = kNever;
    bool ready = false, destroying = false, destroyed = false;
    int pending = 0;                  // writes not answered yet
    std::vector<int> fallback_switches;  // registers kept in a node's memory
    std::uint64_t episodes_done = 0;  // barriers every member left
    std::uint64_t remote_requests = 0, software_messages = 0;
  };

  SC_HAS_PROCESS(BarrierHosts);
  BarrierHosts(sc_core::sc_module_name name, Network& net, const TopoGraph& tg, const HostBarrierConfig& cfg);

  // All times absolute and not in the past. GIDs are 0..255; a destroyed group's GID may be reused.
  void create_group(std::uint8_t gid, const std::vector<int>& members, Time at, Done ready = {});
  void destroy_group(std::uint8_t gid, Time at, Done done = {});
  void barrier(std::uint8_t gid, int node, Time at, Done released = {});

  // A point-to-point message from host `node` to host `dst` at `at`: a start-up on `node`'s
  // processor, then a worm on the up*/down* route; `delivered` at its arrival (the unicast and
  // multicast baselines' messages).
  void send_message(int node, int dst, Time at, Done delivered);

  const Group& group(std::uint8_t gid) const;
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct Episode {
    std::map<int, Time> arrival, released;
    std::map<int, Done> callbacks;
    bool notified = false;
    Time notified_at = 0;
  };
  struct GroupState {
    Group g;
    std::vector<Episode> episodes;
    std::map<int, std::size_t> next_arrival;   // node -> episode of its next arrival
    std::vector<std::pair<int, Time>> waiting;  // arrivals before the group was ready
    std::vector<std::pair<int, Done>> waiting_cb;
    std::map<int, bool> write_done;            // switch -> answered
    Done on_ready, on_destroyed;
  };
  struct SoftRegister { int node = -1; std::unique_ptr<BarrierCore> core; };

  void at(Time t, std::function<void()> fn);
  void wake();
  void send_raw(int node, std::vector<std::uint8_t> bytes);
  void send_worm(int node, int dst, std::uint32_t payload, std::function<void(Time)> on_delivery);
  void issue_writes(GroupState& gs, ConfigOp op);
  void write_answered(GroupState& gs, int sw, ConfigStatus st, ConfigOp op, int writer);
  void arrive(GroupState& gs, int node, Time t, Done cb);
  void root_go(GroupState& gs, Time t);  // the root node has the merged REDUCE and has arrived
  void on_barrier_packet(int node, const std::vector<std::uint8_t>& bytes, Time t);
  void on_message(int node, const BarrierMessage& m, Time t);
  void release(GroupState& gs, int node, Time t);
  void error(std::string what);
  GroupState& state(std::uint8_t gid, const char* what);
  int node_id(NodeAddr a) const { return tg_.node_id.at(a); }

  Network& net_;
  const TopoGraph& tg_;
  HostBarrierConfig cfg_;
  std::multimap<Time, std::function<void()>> actions_;
  sc_core::sc_event wake_ev_;
  std::vector<Time> cpu_free_;                          // per node: its processor's next free time
  std::map<std::uint8_t, GroupState> groups_;
  std::map<std::pair<std::uint8_t, int>, ConfigOp> writes_;  // (gid, switch) -> op in flight
  std::map<std::uint32_t, std::function<void(Time)>> worms_;  // packet id -> delivery action
  std::map<std::pair<std::uint8_t, int>, SoftRegister> soft_;  // (gid, switch) -> node-memory register
  std::vector<std::string> errors_;
};

}  // namespace sanvp::barrier
