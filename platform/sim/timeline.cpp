#include "platform/sim/timeline.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/link/flit.hpp"
#include "hw/link/link.hpp"
#include "platform/sim/network.hpp"

namespace sanvp {

namespace {

// "pkt 12" (test traffic, the run's packet table) or "n3#17" (NIC packet: node, sequence).
std::string packet_name(std::uint32_t id) {
  if (id == kNoPacket) return "switch packet";
  if (is_nic_packet(id)) return fmt::format("n{}#{}", nic_packet_node(id), id & kNicSeqMask);
  return fmt::format("pkt {}", id);
}

nlohmann::json packet_args(std::uint32_t id) {
  if (id == kNoPacket) return nlohmann::json::object();
  return {{"packet", packet_name(id)}};
}

// The earliest open entry of a FIFO kept in a map, removed; false when there is none.
template <typename Map, typename Key, typename V>
bool pop_front(Map& m, const Key& k, V& out) {
  auto it = m.find(k);
  if (it == m.end() || it->second.empty()) return false;
  out = it->second.front();
  it->second.erase(it->second.begin());
  if (it->second.empty()) m.erase(it);
  return true;
}

}  // namespace

std::string timeline_us(Time ps) { return fmt::format("{}.{:06d}", ps / 1000000, ps % 1000000); }

void Timeline::push(Ev e) {
  e.seq = seq_++;
  ev_.push_back(std::move(e));
}

void Timeline::complete(int pid, int tid, Time start, Time end, std::string name, std::string cat, nlohmann::json args) {
  if (!in_window(start)) return;
  Ev e;
  e.ph = 'X', e.ts = start, e.dur = end > start ? end - start : 0, e.pid = pid, e.tid = tid;
  e.name = std::move(name), e.cat = std::move(cat), e.args = std::move(args);
  push(std::move(e));
}

void Timeline::async(int pid, int tid, Time start, Time end, std::string name, std::string cat, nlohmann::json args) {
  if (!in_window(start)) return;
  Ev b;
  b.ph = 'b', b.ts = start, b.pid = pid, b.tid = tid, b.id = next_id_++;
  b.name = std::move(name), b.cat = std::move(cat), b.args = std::move(args);
  Ev e = b;
  e.ph = 'e', e.ts = std::max(start, end), e.args = nullptr;
  push(std::move(b));
  push(std::move(e));
}

void Timeline::instant(int pid, int tid, Time t, std::string name, std::string cat, nlohmann::json args) {
  if (!in_window(t)) return;
  Ev e;
  e.ph = 'i', e.ts = t, e.pid = pid, e.tid = tid;
  e.name = std::move(name), e.cat = std::move(cat), e.args = std::move(args);
  push(std::move(e));
}

void Timeline::name_process(int pid, std::string name, int sort) { process_names_[pid] = {std::move(name), sort}; }
void Timeline::name_thread(int pid, int tid, std::string name) { thread_names_[{pid, tid}] = std::move(name); }

// Where a link direction starts (tx) or ends (rx): a node's link track or a switch port's.
Timeline::End Timeline::end_of(Network& net, const std::string& path, bool tx) const {
  End e;
  int a = -1, b = -1;
  if (std::sscanf(path.c_str(), "sw%d.p%d.out", &a, &b) == 2) {
    if (tx) return End{switch_pid(a), port_tid(b, true), a, -1};
    for (int n = 0; n < net.nodes(); ++n)
      if (net.attachment(n).sw == a && net.attachment(n).port == b) return End{node_pid(n), node_tid(NodeTrack::LinkIn), -1, n};
    for (const auto& t : net.trunks()) {
      if (t.sw_a == a && t.port_a == b) return End{switch_pid(t.sw_b), port_tid(t.port_b, false), t.sw_b, -1};
      if (t.sw_b == a && t.port_b == b) return End{switch_pid(t.sw_a), port_tid(t.port_a, false), t.sw_a, -1};
    }
  } else if (std::sscanf(path.c_str(), "n%d.out", &a) == 1) {
    if (tx) return End{node_pid(a), node_tid(NodeTrack::LinkOut), -1, a};
    const auto& at = net.attachment(a);
    return End{switch_pid(at.sw), port_tid(at.port, false), at.sw, -1};
  }
  throw std::logic_error(fmt::format("timeline: link direction '{}' has an unknown name", path));
}

void Timeline::observe_network(Network& net) {
  nodes_ = net.nodes();
  for (int n = 0; n < net.nodes(); ++n) {
    name_process(node_pid(n), fmt::format("n{}", n), n);
    name_thread(node_pid(n), node_tid(NodeTrack::LinkOut), "link out");
    name_thread(node_pid(n), node_tid(NodeTrack::LinkIn), "link in");
    name_thread(node_pid(n), node_tid(NodeTrack::Messages), "packets");
  }
  for (int s = 0; s < net.switches(); ++s) {
    name_process(switch_pid(s), fmt::format("sw{}", s), nodes_ + s);
    for (int p = 0; p < net.switch_ports(s); ++p) {
      name_thread(switch_pid(s), port_tid(p, false), fmt::format("p{} in", p));
      name_thread(switch_pid(s), port_tid(p, true), fmt::format("p{} out", p));
    }
  }
  for (const auto& ch : net.channels()) {
    auto w = std::make_unique<Wire>();
    w->tx = end_of(net, ch->path(), true);
    w->rx = end_of(net, ch->path(), false);
    w->ld = ch->timing().ld;
    watch(*ch, *w);
    wires_.push_back(std::move(w));
  }
}

void Timeline::watch(LinkChannel& ch, Wire& w) {
  Wire* p = &w;
  ch.add_observer([this, p](const Flit& f, Time t) { on_sent(*p, f, t); });
  ch.add_rx_observer([this, p](const Flit& f, Time t) { on_received(*p, f, t); });
  // The receiver's flow controller emits STOP/GO on its own end of the link.
  ch.add_control_observer([this, p](bool stop, Time t) {
    instant(p->rx.pid, p->rx.tid, t, stop ? "STOP" : "GO", "flow");
  });
}

// The sender's view: a worm from its header's departure to its tail's. A tail out of a switch
// ends the hop that began when the header reached that switch.
void Timeline::on_sent(Wire& w, const Flit& f, Time t) {
  Open& o = w.sent;
  if (f.head || !o.open) {
    if (o.open) {  // its tail never left (a switch consumed the worm): ends at its last flit
      nlohmann::json a = packet_args(o.packet);
      a["flits"] = o.flits;
      a["tail"] = false;
      complete(w.tx.pid, w.tx.tid, o.start, o.last, packet_name(o.packet), "link", std::move(a));
    }
    o = Open{true, f.packet, t, t, 0};
    if (w.tx.node >= 0 && f.packet != kNoPacket) packet_open_[f.packet].emplace_back(w.tx.node, t);
  }
  ++o.flits;
  o.last = t;
  if (!f.tail) return;
  nlohmann::json a = packet_args(f.packet);
  a["flits"] = o.flits;
  complete(w.tx.pid, w.tx.tid, o.start, t, packet_name(f.packet), "link", std::move(a));
  o.open = false;
  Time in = 0;
  if (w.tx.sw >= 0 && pop_front(hop_open_, std::make_pair(w.tx.sw, f.packet), in))
    async(w.tx.pid, w.tx.tid, in, t, fmt::format("hop {}", packet_name(f.packet)), "hop", packet_args(f.packet));
}

// The receiver's view (after link faults): from the header's arrival to the tail's.
void Timeline::on_received(Wire& w, const Flit& f, Time t) {
  Open& o = w.got;
  const Time at = t + w.ld;
  if (f.head || !o.open) {
    if (o.open) close_received(w, true);
    o = Open{true, f.packet, at, at, 0};
    if (w.rx.sw >= 0) hop_open_[{w.rx.sw, f.packet}].push_back(at);
  }
  ++o.flits;
  o.last = at;
  if (!f.tail) return;
  close_received(w, false);
  std::pair<int, Time> src;
  if (w.rx.node >= 0 && f.packet != kNoPacket && pop_front(packet_open_, f.packet, src)) {
    nlohmann::json a = packet_args(f.packet);
    a["from"] = fmt::format("n{}", src.first);
    a["to"] = fmt::format("n{}", w.rx.node);
    async(node_pid(src.first), node_tid(NodeTrack::Messages), src.second, at, packet_name(f.packet), "packet", std::move(a));
  }
}

void Timeline::close_received(Wire& w, bool truncated) {
  Open& o = w.got;
  nlohmann::json a = packet_args(o.packet);
  a["flits"] = o.flits;
  if (truncated) a["tail"] = false;
  complete(w.rx.pid, w.rx.tid, o.start, o.last, packet_name(o.packet), "link", std::move(a));
  o.open = false;
}

nlohmann::json Timeline::other_data(const std::string& command, const std::string& scenario, std::uint64_t seed) const {
  nlohmann::json j = {{"sanvp", SANVP_VERSION}, {"command", command}, {"seed", seed}, {"window_from_ps", from_},
                      {"window_to_ps", to_ == kNever ? nlohmann::json(nullptr) : nlohmann::json(to_)}};
  if (!scenario.empty()) j["scenario"] = scenario;
  return j;
}

namespace {

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

}  // namespace

std::string Timeline::text(const nlohmann::json& other) const {
  std::set<std::pair<int, int>> used;
  std::set<int> pids;
  for (const auto& e : ev_) { used.insert({e.pid, e.tid}); pids.insert(e.pid); }
  std::string out = "{\"displayTimeUnit\":\"ns\",\"otherData\":" + other.dump() + ",\"traceEvents\":[\n";
  bool first = true;
  auto line = [&](const std::string& s) { out += (first ? "" : ",\n") + s; first = false; };
  for (int pid : pids) {
    const auto it = process_names_.find(pid);
    const std::string name = it != process_names_.end() ? it->second.first : fmt::format("process {}", pid);
    const int sort = it != process_names_.end() ? it->second.second : pid;
    line(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":{}}}}})", pid, quoted(name)));
    line(fmt::format(R"({{"name":"process_sort_index","ph":"M","pid":{},"tid":0,"args":{{"sort_index":{}}}}})", pid, sort));
  }
  for (const auto& [pid, tid] : used) {
    const auto it = thread_names_.find({pid, tid});
    const std::string name = it != thread_names_.end() ? it->second : fmt::format("track {}", tid);
    line(fmt::format(R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":{}}}}})", pid, tid, quoted(name)));
    line(fmt::format(R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})", pid, tid, tid));
  }
  std::vector<const Ev*> order;
  order.reserve(ev_.size());
  for (const auto& e : ev_) order.push_back(&e);
  // Time order; at one instant longer spans first (they enclose), then recording order.
  std::sort(order.begin(), order.end(), [](const Ev* a, const Ev* b) {
    if (a->ts != b->ts) return a->ts < b->ts;
    if (a->dur != b->dur) return a->dur > b->dur;
    return a->seq < b->seq;
  });
  for (const Ev* e : order) {
    std::string s = fmt::format(R"({{"name":{},"cat":{},"ph":"{}","ts":{},"pid":{},"tid":{})", quoted(e->name), quoted(e->cat), e->ph,
                                timeline_us(e->ts), e->pid, e->tid);
    if (e->ph == 'X') s += ",\"dur\":" + timeline_us(e->dur);
    if (e->ph == 'b' || e->ph == 'e') s += fmt::format(",\"id\":{}", e->id);
    if (e->ph == 'i') s += ",\"s\":\"t\"";
    if (e->args.is_object() && !e->args.empty()) s += ",\"args\":" + e->args.dump();
    line(s + "}");
  }
  return out + "\n]}\n";
}

}  // namespace sanvp
