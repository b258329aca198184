#include "hw/base/sim_time.hpp"
#include "platform/barrier/host_barrier.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hw/barrier/wire_format.hpp"
#include "hw/base/error.hpp"
#include "hw/base/log.hpp"

namespace sanvp::barrier {

namespace {
sc_core::sc_time after(Time t) { return sc_core::sc_time::from_value(t); }
}  // namespace

BarrierHosts::BarrierHosts(sc_core::sc_module_name name, Network& net, const TopoGraph& tg, const HostBarrierConfig& cfg)
    : sc_module(name), net_(net), tg_(tg), cfg_(cfg) {
  if (net.nodes() != static_cast<int>(tg.node_addr.size()))
    throw UserError(fmt::format("barrier hosts: network has {} nodes, topology {}", net.nodes(), tg.node_addr.size()));
  cpu_free_.assign(static_cast<std::size_t>(net.nodes()), 0);
  for (int n = 0; n < net.nodes(); ++n) {
    // Endpoints report a packet when its tail leaves the sender (arrival = that + ld): the host
    // acts at the arrival time.
    net.node(n).set_barrier_observer([this, n](const std::vector<std::uint8_t>& b, Time t) {
      at(t, [this, n, b, t] { on_barrier_packet(n, b, t); });
    });
    net.node(n).set_delivery_observer([this](std::uint32_t pkt, Time t) {
      auto it = worms_.find(pkt);
      if (it == worms_.end()) return;  // ordinary traffic
      auto fn = std::move(it->second);
      worms_.erase(it);
      at(t, [fn = std::move(fn), t] { fn(t); });
    });
  }
  SC_METHOD(wake);
  sensitive << wake_ev_;
}

void BarrierHosts::at(Time t, std::function<void()> fn) {
  const bool earliest = actions_.empty() || t < actions_.begin()->first;
  actions_.emplace(t, std::move(fn));
  if (earliest && sc_core::sc_is_running()) wake_ev_.notify(after(t - std::min(t, now_ps())));
}

void BarrierHosts::wake() {
  while (!actions_.empty() && actions_.begin()->first <= now_ps()) {
    auto fn = std::move(actions_.begin()->second);
    actions_.erase(actions_.begin());
    fn();
  }
  if (!actions_.empty()) wake_ev_.notify(after(actions_.begin()->first - now_ps()));
}

void BarrierHosts::send_raw(int node, std::vector<std::uint8_t> bytes) {
  Time& cpu = cpu_free_[static_cast<std::size_t>(node)];
  cpu = std::max(cpu, now_ps()) + cfg_.startup;
  at(cpu, [this, node, b = std::move(bytes)]() mutable { net_.node(node).inject_raw(std::move(b), now_ps()); });
}

void BarrierHosts::send_worm(int node, int dst, std::uint32_t payload, std::function<void(Time)> on_delivery) {
  Time& cpu = cpu_free_[static_cast<std::size_t>(node)];
  cpu = std::max(cpu, now_ps()) + cfg_.startup;
  at(cpu, [this, node, dst, payload, fn = std::move(on_delivery)]() mutable {
    worms_[net_.node(node).inject(dst, payload, now_ps())] = std::move(fn);
  });
}

void BarrierHosts::send_message(int node, int dst, Time t, Done delivered) {
  if (node < 0 || node >= net_.nodes() || dst < 0 || dst >= net_.nodes() || node == dst)
    throw UserError(fmt::format("barrier hosts: message from node {} to node {}", node, dst));
  at(t, [this, node, dst, fn = std::move(delivered)]() mutable { send_worm(node, dst, kPayloadHeader, std::move(fn)); });
}

void BarrierHosts::error(std::string what) {
  errors_.push_back(fmt::format("{}: {}", format_time(now_ps()), what));
}

BarrierHosts::GroupState& BarrierHosts::state(std::uint8_t gid, const char* what) {
  auto it = groups_.find(gid);
  if (it == groups_.end()) throw UserError(fmt::format("barrier hosts: {}: no group {}", what, gid));
  return it->second;
}

const BarrierHosts::Group& BarrierHosts::group(std::uint8_t gid) const {
  auto it = groups_.find(gid);
  if (it == groups_.end()) throw UserError(fmt::format("barrier hosts: no group {}", gid));
  return it->second.g;
}

void BarrierHosts::create_group(std::uint8_t gid, const std::vector<int>& members, Time t, Done ready) {
  auto old = groups_.find(gid);
  if (old != groups_.end() && !old->second.g.destroyed) throw UserError(fmt::format("barrier hosts: group {} exists", gid));
  std::vector<NodeAddr> addrs;
  for (int m : members) {
    if (m < 0 || m >= net_.nodes()) throw UserError(fmt::format("barrier hosts: group {}: no node {}", gid, m));
    addrs.push_back(tg_.node_addr[static_cast<std::size_t>(m)]);
  }
  GroupState gs;
  // Every member runs Setup_Register independently; plan_group checks they all agree.
  gs.g.plan = plan_group(tg_.graph, addrs, gid, LeafRule::DeepestLevel, cfg_.plan);
  for (const auto& a : gs.g.plan.members) gs.g.members.push_back(node_id(a));
  gs.g.requested = t;
  gs.on_ready = std::move(ready);
  groups_[gid] = std::move(gs);
  at(t, [this, gid] { issue_writes(groups_.at(gid), ConfigOp::Alloc); });
}

void BarrierHosts::destroy_group(std::uint8_t gid, Time t, Done done) {
  GroupState& gs = state(gid, "destroy");
  gs.on_destroyed = std::move(done);
  at(t, [this, gid] {
    GroupState& s = groups_.at(gid);
    if (!s.g.ready || s.g.destroying) { error(fmt::format("group {} destroyed before it was ready, or twice", gid)); return; }
    s.g.destroying = true;
    issue_writes(s, ConfigOp::Release);
  });
}

void BarrierHosts::issue_writes(GroupState& gs, ConfigOp op) {
  const std::uint8_t gid = gs.g.plan.gid;
  for (const auto& w : gs.g.plan.writes) {
    if (w.writer.sw < 0) {
      error(fmt::format("group {}: switch {} has no node to write its register", gid, w.sw));
      continue;
    }
    ConfigCommand cmd = w.cmd;
    if (op == ConfigOp::Release) cmd = ConfigCommand{ConfigOp::Release, gid, 0, 0};
    const int writer = node_id(w.writer);
    ++gs.g.pending;
    writes_[{gid, w.sw}] = op;
    if (!w.remote) {
      send_raw(writer, encode_config(cmd));
    } else {  // point-to-point request from the representative; the node then writes
      ++gs.g.remote_requests;
      send_worm(node_id(w.requested_by), writer, cfg_.request_payload, [this, writer, cmd](Time) { send_raw(writer, encode_config(cmd)); });
    }
  }
}

void BarrierHosts::write_answered(GroupState& gs, int sw, ConfigStatus st, ConfigOp op, int writer) {
  const std::uint8_t gid = gs.g.plan.gid;
  if (op == ConfigOp::Alloc) {
    if (st == ConfigStatus::Full) {  // exhaustion: the writer keeps the register in its memory
      gs.g.fallback_switches.push_back(sw);
      log::info("group {}: switch {} has no free barrier register; node {} keeps it in memory (slower)", gid, sw, writer);
      SoftRegister r;
      r.node = writer;
      r.core = std::make_unique<BarrierCore>(tg_.graph.ports(), 1);
      if (r.core->configure(gs.g.plan.write_for(sw).cmd).status != ConfigStatus::Ok)
        error(fmt::format("group {}: node-memory register of switch {} refused the setup", gid, sw));
      soft_[{gid, sw}] = std::move(r);
    } else if (st != ConfigStatus::Ok) {
      error(fmt::format("group {}: switch {} answered {} to ALLOC", gid, sw, to_string(st)));
    }
  } else {
    const bool fallback = soft_.count({gid, sw}) != 0;
    if (!(st == ConfigStatus::Ok && !fallback) && !(st == ConfigStatus::NotFound && fallback))
      error(fmt::format("group {}: switch {} answered {} to RELEASE", gid, sw, to_string(st)));
  }
  if (--gs.g.pending > 0) return;
  const Time t = now_ps();
  if (op == ConfigOp::Alloc) {
    gs.g.ready = true;
    gs.g.ready_at = t;
    auto waiting = std::move(gs.waiting);
    auto cbs = std::move(gs.waiting_cb);
    for (std::size_t i = 0; i < waiting.size(); ++i) arrive(gs, waiting[i].first, t, std::move(cbs[i].second));
    if (gs.on_ready) gs.on_ready(t);
  } else {
    gs.g.destroyed = true;
    gs.g.destroyed_at = t;
    for (int s : gs.g.fallback_switches) soft_.erase({gid, s});
    if (gs.on_destroyed) gs.on_destroyed(t);
  }
}

void BarrierHosts::barrier(std::uint8_t gid, int node, Time t, Done released) {
  GroupState& gs = state(gid, "barrier");
  if (std::find(gs.g.members.begin(), gs.g.members.end(), node) == gs.g.members.end())
    throw UserError(fmt::format("barrier hosts: node {} is not a member of group {}", node, gid));
  at(t, [this, gid, node, cb = std::move(released)]() mutable {
    GroupState& s = groups_.at(gid);
    if (s.g.destroying) { error(fmt::format("node {} entered a barrier of group {} being destroyed", node, gid)); return; }
    if (!s.g.ready) {
      s.waiting.emplace_back(node, now_ps());
      s.waiting_cb.emplace_back(node, std::move(cb));
      return;
    }
    arrive(s, node, now_ps(), std::move(cb));
  });
}

void BarrierHosts::arrive(GroupState& gs, int node, Time t, Done cb) {
  const std::size_t ep = gs.next_arrival[node]++;
  if (gs.episodes.size() <= ep) gs.episodes.resize(ep + 1);
  Episode& e = gs.episodes[ep];
  e.arrival[node] = t;
  e.callbacks[node] = std::move(cb);
  if (node == node_id(gs.g.plan.root_node)) {
    if (e.notified) root_go(gs, t);
    return;
  }
  send_raw(node, encode_message(BarrierMessage{MsgType::Reduce, gs.g.plan.gid, 1}));
}

void BarrierHosts::root_go(GroupState& gs, Time t) {
  const int root = node_id(gs.g.plan.root_node);
  release(gs, root, t);
  send_raw(root, encode_message(BarrierMessage{MsgType::Distribute, gs.g.plan.gid, 2}));
}

void BarrierHosts::release(GroupState& gs, int node, Time t) {
  std::size_t ep = 0;
  while (ep < gs.episodes.size() && gs.episodes[ep].released.count(node)) ++ep;
  if (ep >= gs.episodes.size()) { error(fmt::format("group {}: node {} released without arriving", gs.g.plan.gid, node)); return; }
  Episode& e = gs.episodes[ep];
  for (int m : gs.g.members) {
    auto a = e.arrival.find(m);
    if (a == e.arrival.end() || a->second > t)
      error(fmt::format("group {} episode {}: node {} released at {} before node {} arrived", gs.g.plan.gid, ep, node,
                        format_time(t), m));
  }
  e.released[node] = t;
  auto cb = std::move(e.callbacks[node]);
  if (e.released.size() == gs.g.members.size()) ++gs.g.episodes_done;
  if (cb) cb(t);
}

void BarrierHosts::on_message(int node, const BarrierMessage& m, Time t) {
  auto it = groups_.find(m.gid);
  if (it == groups_.end() || !it->second.g.ready || it->second.g.destroyed) {
    error(fmt::format("node {} got a barrier message of unknown group {}", node, m.gid));
    return;
  }
  GroupState& gs = it->second;
  const int root = node_id(gs.g.plan.root_node);
  if (m.type == MsgType::Reduce) {
    if (node != root) { error(fmt::format("group {}: REDUCE reached non-root node {}", m.gid, node)); return; }
    std::size_t ep = 0;
    while (ep < gs.episodes.size() && gs.episodes[ep].notified) ++ep;
    if (gs.episodes.size() <= ep) gs.episodes.resize(ep + 1);
    Episode& e = gs.episodes[ep];
    e.notified = true;
    e.notified_at = t;
    if (e.arrival.count(root)) root_go(gs, t);
  } else if (m.type == MsgType::Distribute) {
    if (node == root || !std::count(gs.g.members.begin(), gs.g.members.end(), node)) {
      error(fmt::format("group {}: DISTRIBUTE reached node {}", m.gid, node));
      return;
    }
    release(gs, node, t);
  } else {
    error(fmt::format("node {}: barrier message of type {}", node, static_cast<int>(m.type)));
  }
}

void BarrierHosts::on_barrier_packet(int node, const std::vector<std::uint8_t>& bytes, Time t) {
  const int sw = tg_.node_addr[static_cast<std::size_t>(node)].sw;
  if (auto r = decode_response(bytes)) {
    auto w = writes_.find({r->gid, sw});
    auto g = groups_.find(r->gid);
    if (w == writes_.end() || g == groups_.end()) { error(fmt::format("node {}: unexpected config response", node)); return; }
    const ConfigOp op = w->second;
    writes_.erase(w);
    write_answered(g->second, sw, r->resp.status, op, node);
    return;
  }
  if (auto m = decode_message(bytes)) { on_message(node, *m, t); return; }
  if (auto s = decode_spilled(bytes)) {
    auto it = soft_.find({s->msg.gid, sw});
    if (it == soft_.end() || it->second.node != node) { error(fmt::format("node {}: spilled message of group {} it does not keep", node, s->msg.gid)); return; }
    auto& gs = groups_.at(s->msg.gid);
    BarrierCore& c = *it->second.core;
    ++gs.g.software_messages;
    if (auto why = c.arrive(s->in_port, s->msg.encode()))
      error(fmt::format("node-memory register of switch {} dropped {:04x} from port {} ({})", sw, s->msg.encode(), s->in_port, to_string(*why)));
    c.fire();
    const int own = tg_.node_addr[static_cast<std::size_t>(node)].port;
    for (int q = 0; q < tg_.graph.ports(); ++q) {
      while (auto out = c.offer(q)) {
        c.take(q);
        if (q == own) { on_message(node, *out, t); continue; }
        std::vector<std::uint8_t> b{static_cast<std::uint8_t>(q)};  // route byte, then the message
        const auto msg = encode_message(*out);
        b.insert(b.end(), msg.begin(), msg.end());
        send_raw(node, std::move(b));
      }
    }
    return;
  }
  error(fmt::format("node {}: undecodable barrier packet ({} bytes)", node, bytes.size()));
}

}  // namespace sanvp::barrier
