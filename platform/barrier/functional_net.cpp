#include "platform/barrier/functional_net.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <queue>

#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"

namespace sanvp::barrier {

struct FunctionalBtinNet::Event {
  Time t;
  std::uint64_t order;  // random tie-break among equal times
  int kind;             // 0: at switch input, 1: at node, 2: at memory node of switch `sw`
  int group, sw, port;
  std::uint16_t raw;
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : order > o.order; }
};

struct FunctionalBtinNet::GroupState {
  const GroupPlan* plan = nullptr;
  int index = 0;
  Result res;
  std::map<NodeAddr, Time> arrival;
  Time last_arrival = 0;
  bool notified = false;
};

namespace {
std::vector<int> check_registers(const SwitchGraph& g, std::vector<int> r) {
  if (r.size() != static_cast<std::size_t>(g.switches()))
    throw UserError("functional BTIN: one register count per switch needed");
  return r;
}
}  // namespace

FunctionalBtinNet::FunctionalBtinNet(const SwitchGraph& g, std::vector<int> registers, const LatencyParams& p)
    : g_(g), p_(p) {
  registers = check_registers(g, std::move(registers));
  for (int s = 0; s < g.switches(); ++s)
    cores_.emplace_back(g.ports(), std::max(1, registers[static_cast<std::size_t>(s)]));
  // A switch declared with 0 registers: fill its single register so every ALLOC meets FULL.
  for (int s = 0; s < g.switches(); ++s)
    if (registers[static_cast<std::size_t>(s)] == 0)
      cores_[static_cast<std::size_t>(s)].configure({ConfigOp::Alloc, 0xff, 0, 3});
}

Deployment FunctionalBtinNet::create(const GroupPlan& plan) {
  if (deployments_.count(plan.gid)) throw UserError(fmt::format("functional BTIN: group {} exists", plan.gid));
  Deployment d = deploy(plan, [&](int sw, NodeAddr, const ConfigCommand& cmd) {
    return cores_[static_cast<std::size_t>(sw)].configure(cmd);
  });
  for (std::size_t i = 0; i < plan.writes.size(); ++i) {
    if (d.placements[i].in_switch) continue;
    auto soft = std::make_unique<BarrierCore>(g_.ports(), 1);
    const ConfigResponse r = soft->configure(plan.writes[i].cmd);
    if (r.status != ConfigStatus::Ok) throw SimError("functional BTIN: node-memory register refused the setup");
    memory_[{plan.gid, plan.writes[i].sw}] = std::move(soft);
  }
  deployments_[plan.gid] = d;
  return d;
}

void FunctionalBtinNet::destroy(const GroupPlan& plan) {
  auto it = deployments_.find(plan.gid);
  if (it == deployments_.end()) throw UserError(fmt::format("functional BTIN: no group {}", plan.gid));
  teardown(plan, it->second, [&](int sw, NodeAddr, const ConfigCommand& cmd) {
    return cores_[static_cast<std::size_t>(sw)].configure(cmd);
  });
  for (const auto& w : plan.writes) memory_.erase({plan.gid, w.sw});
  deployments_.erase(it);
}

void FunctionalBtinNet::push(Time t, int kind, int group, int sw, int port, std::uint16_t raw) {
  queue_->push_back(Event{t, splitmix64(seq_rng_), kind, group, sw, port, raw});
  std::push_heap(queue_->begin(), queue_->end(), std::greater<>());
}

// A message leaves switch `sw` on `port` at time t (after the switch delay).
void FunctionalBtinNet::emit(GroupState& gs, int sw, int port, std::uint16_t raw, Time t) {
  ++gs.res.links;
  for (const auto& l : g_.links(sw)) {
    if (l.port == port) {
      push(t + p_.t_p, 0, gs.index, l.peer, l.peer_port, raw);
      return;
    }
  }
  if (!g_.has_node({sw, port}))
    throw SimError(fmt::format("functional BTIN: group {} sent a message out of unconnected port {} of switch {}",
                               gs.plan->gid, port, sw));
  push(t + p_.t_p + p_.t_r, 1, gs.index, sw, port, raw);
}

void FunctionalBtinNet::handle_at_switch(GroupState& gs, int sw, int port, std::uint16_t raw, Time t) {
  const Placement& pl = deployments_.at(gs.plan->gid).at(sw);
  if (!pl.in_switch) {  // detour to the node keeping this switch's register
    ++gs.res.links;  // switch -> memory node; each message back is counted when sent
    push(t + p_.t_r + p_.t_p + p_.t_r, 2, gs.index, sw, port, raw);
    return;
  }
  BarrierCore& c = cores_[static_cast<std::size_t>(sw)];
  if (auto why = c.arrive(port, raw))
    throw SimError(fmt::format("functional BTIN: switch {} dropped {:04x} from port {} ({})", sw, raw, port, to_string(*why)));
  c.fire();
  for (int q = 0; q < g_.ports(); ++q) {
    while (auto m = c.offer(q)) {
      c.take(q);
      emit(gs, sw, q, m->encode(), t + p_.t_r);
    }
  }
}

// Each group's state, and every non-root member's first REDUCE on its way.
std::vector<FunctionalBtinNet::GroupState> FunctionalBtinNet::start_groups(const std::vector<const GroupPlan*>& groups,
                                                                           const std::vector<std::map<NodeAddr, Time>>& arrival) {
  std::vector<GroupState> st;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (!deployments_.count(groups[i]->gid)) throw UserError(fmt::format("functional BTIN: group {} not created", groups[i]->gid));
    GroupState gs;
    gs.plan = groups[i];
    gs.index = static_cast<int>(i);
    if (i < arrival.size()) gs.arrival = arrival[i];
    for (const auto& m : groups[i]->members) {
      gs.arrival.emplace(m, 0);  // default: time 0
      gs.last_arrival = std::max(gs.last_arrival, gs.arrival[m]);
    }
    st.push_back(std::move(gs));
  }
  for (auto& gs : st) {
    for (const auto& m : gs.plan->members) {
      if (m == gs.plan->root_node) continue;
      const std::uint16_t raw = BarrierMessage{MsgType::Reduce, gs.plan->gid, 1}.encode();
      ++gs.res.links;
      push(gs.arrival[m] + p_.t_s + p_.t_r + p_.t_p, 0, gs.index, m.sw, m.port, raw);
    }
  }
  return st;
}

// A message for a switch's node-memory register: handled by software, one start-up per message
// sent back.
void FunctionalBtinNet::handle_in_software(GroupState& gs, const Event& e) {
  BarrierCore& soft = *memory_.at({gs.plan->gid, e.sw});
  ++gs.res.software_messages;
  if (auto why = soft.arrive(e.port, e.raw))
    throw SimError(fmt::format("functional BTIN: node-memory register of switch {} dropped {:04x} ({})", e.sw, e.raw, to_string(*why)));
  soft.fire();
  Time t = e.t;
  for (int q = 0; q < g_.ports(); ++q) {
    while (auto out = soft.offer(q)) {
      soft.take(q);
      t += p_.t_s;
      ++gs.res.links;
      emit(gs, e.sw, q, out->encode(), t + p_.t_r + p_.t_p + p_.t_r);
    }
  }
}

// A message reaching a member node: the root's REDUCE starts the DISTRIBUTE, a DISTRIBUTE
// releases its member.
void FunctionalBtinNet::handle_at_node(GroupState& gs, const Event& e) {
  const BarrierMessage m = BarrierMessage::decode(e.raw);
  const NodeAddr n{e.sw, e.port};
  if (!std::binary_search(gs.plan->members.begin(), gs.plan->members.end(), n))
    throw SimError(fmt::format("functional BTIN: group {} message reached non-member {}", gs.plan->gid, to_string(n)));
  if (m.type == MsgType::Reduce) {
    if (!(n == gs.plan->root_node) || gs.notified)
      throw SimError(fmt::format("functional BTIN: unexpected REDUCE at {}", to_string(n)));
    gs.notified = true;
    gs.res.root_notified = e.t;
    const Time go = std::max(e.t, gs.arrival[n]) + p_.t_s + p_.t_r;
    ++gs.res.links;
    push(go + p_.t_p, 0, gs.index, n.sw, n.port, BarrierMessage{MsgType::Distribute, gs.plan->gid, 2}.encode());
    return;
  }
  if (n == gs.plan->root_node || gs.res.released.count(n))
    throw SimError(fmt::format("functional BTIN: member {} released twice", to_string(n)));
  if (e.t < gs.last_arrival) throw SimError("functional BTIN: released before the last member arrived");
  gs.res.released[n] = e.t;
}

std::vector<FunctionalBtinNet::Result> FunctionalBtinNet::results(std::vector<GroupState>& st) {
  std::vector<Result> out;
  for (auto& gs : st) {
    if (!gs.notified) throw SimError(fmt::format("functional BTIN: group {} never reached its root node", gs.plan->gid));
    // The root node proceeds when it sends the DISTRIBUTE.
    gs.res.released[gs.plan->root_node] = std::max(gs.res.root_notified, gs.arrival[gs.plan->root_node]);
    if (gs.res.released.size() != gs.plan->members.size())
      throw SimError(fmt::format("functional BTIN: group {} released {} of {} members", gs.plan->gid,
                                 gs.res.released.size(), gs.plan->members.size()));
    for (const auto& [n, t] : gs.res.released) gs.res.latency = std::max(gs.res.latency, t);
    out.push_back(gs.res);
  }
  return out;
}

std::vector<FunctionalBtinNet::Result> FunctionalBtinNet::run(const std::vector<const GroupPlan*>& groups,
                                                              const std::vector<std::map<NodeAddr, Time>>& arrival,
                                                              std::uint64_t seed) {
  std::vector<Event> heap;
  queue_ = &heap;
  seq_rng_ = seed;
  std::vector<GroupState> st = start_groups(groups, arrival);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const Event e = heap.back();
    heap.pop_back();
    GroupState& gs = st[static_cast<std::size_t>(e.group)];
    if (e.kind == 0) handle_at_switch(gs, e.sw, e.port, e.raw, e.t);
    else if (e.kind == 2) handle_in_software(gs, e);
    else handle_at_node(gs, e);
  }
  queue_ = nullptr;
  return results(st);
}

}  // namespace sanvp::barrier
