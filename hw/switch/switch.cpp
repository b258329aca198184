#include "hw/switch/switch.hpp"

#include <deque>

#include <fmt/format.h>

#include "hw/barrier/wire_format.hpp"
#include "hw/base/error.hpp"
#include "hw/base/log.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp {

SwitchConfig SwitchConfig::from_params(ParamValues& pv, const std::string& path, int ports) {
  SwitchConfig c;
  c.ports = ports;
  c.rd = pv.time(path, "switch", "rd");
  c.sd = pv.time(path, "switch", "sd");
  c.arbiter = pv.string(path, "switch", "arbiter");
  if (!make_output_arbiter(c.arbiter, 2, 2, 0, path))
    pv.fail(path, "switch", "arbiter", fmt::format("unknown policy '{}' (available: {})", c.arbiter, output_arbiter_names()));
  c.fc = FlowControlConfig::from_params(pv, path);
  c.barrier = barrier::BarrierUnitConfig::from_params(pv, path);
  return c;
}

// One switch port: the input side (slack buffer, routing state) and the output side (link
// transmitter, the worm it carries).
struct Switch::Port : public sc_core::sc_module, public FlitReceiver {
  enum class In { Idle, Waiting, Forwarding, Collecting };

  SC_HAS_PROCESS(Port);
  Port(sc_core::sc_module_name n, Switch& sw, int index)
      : sc_module(n), sw(sw), idx(index), in("in", sw.cfg_.fc) {
    in.set_head_listener([this](Time arrival) { on_new_head(arrival); });
    tx.attach(nullptr, {});
    tx.set_work([this] { return pending_work(); });
    // Every process sleeps on a Wakeup: several causes ask for wake-ups at different times
    // (hw/base/wakeup.hpp), and none may be lost.
    SC_METHOD(route);
    sensitive << route_ev.event();
    dont_initialize();
    SC_METHOD(transmit);
    sensitive << xmit_ev.event();
    dont_initialize();
    SC_METHOD(barrier_ready);
    sensitive << barrier_ev.event();
    dont_initialize();
  }

  void barrier_ready() {
    barrier_ev.fired();
    sw.barrier_request(idx);
  }

  // FlitReceiver: flits leaving the upstream sender.
  void receive(const Flit& f, Time arrival) override { in.push(f, arrival); }

  void on_new_head(Time arrival) {
    if (state == In::Idle || state == In::Collecting) route_ev.at(arrival);
    else if (state == In::Forwarding) {
      sw.ports_[out]->xmit_ev.at(arrival);
      sw.ports_[out]->tx.work_at(arrival);
    }
  }

  // Output side, for the work-conservation monitor: the flit this output should send next.
  LinkTransmitter::Work pending_work() const {
    const int src = sw.crossbar_.input_of(idx);
    if (src < 0) return {};
    if (src == sw.barrier_input()) return {sw.crossbar_.at_output(grant_time), kNoPacket};
    const FlowController& b = sw.ports_[static_cast<std::size_t>(src)]->in;
    if (b.empty()) return {};
    return {sw.crossbar_.at_output(std::max(b.head().arrival, grant_time)), b.head().flit.packet};
  }

  // Input side: route the worm at the buffer head rd after it got there.
  void route() {
    route_ev.fired();
    if (state == In::Collecting) { collect(); return; }
    if (state != In::Idle || in.empty()) return;
    const Time now = now_ps();
    const auto& h = in.head();
    if (h.flit.head && barrier::is_barrier_lead(h.flit.data)) {
      // Barrier traffic is consumed as it arrives, without routing.
      state = In::Collecting;
      collected.clear();
      collect();
      return;
    }
    const Time at_head = std::max(h.arrival, free_since);
    const Time decided = at_head + sw.cfg_.rd;
    if (now < decided) { route_ev.at(decided); return; }
    if (!h.flit.head)
      throw SimError(fmt::format("{}: flit of packet {} at buffer head is not a worm header", name(), h.flit.packet));
    const int port = h.flit.data;
    const std::uint32_t pkt = h.flit.packet;
    in.pop(now);  // the route byte is consumed here
    if (port >= sw.cfg_.ports || !sw.ports_[port]->tx.connected())
      throw SimError(fmt::format("{}: packet {} routed to {} port {} of {}", name(), pkt,
                                 port >= sw.cfg_.ports ? "nonexistent" : "unconnected", port, sw.name()));
    state = In::Waiting;
    out = port;
    packet = pkt;
    sw.request_output(idx, port);
  }

  // Input side, barrier packet: take each flit at its arrival; the whole packet goes to the unit.
  void collect() {
    const Time now = now_ps();
    while (!in.empty()) {
      const auto& h = in.head();
      if (h.arrival > now) { route_ev.at(h.arrival); return; }
      const Flit f = h.flit;
      in.pop(now);
      collected.push_back(f.data);
      if (f.tail) {
        state = In::Idle;
        free_since = now;
        if (f.packet != kNoPacket) sw.barrier_ends_.add(f.packet);  // a NIC's packet ends here
        sw.barrier_packet(idx, collected, now);
        if (!in.empty()) route_ev.now();
        return;
      }
    }
  }

  // Output side, barrier unit granted: send its packet from the output's queue.
  void transmit_barrier() {
    const Time now = now_ps();
    if (bpos == 0 && bsending.empty()) {
      // Pick what to send now: queued responses first, then the unit's message for this port.
      if (!bqueue.empty()) {
        bsending = std::move(bqueue.front());
        bqueue.pop_front();
      } else if (auto m = sw.barrier_.peek(idx)) {
        bsending = barrier::encode_message(*m);
        sw.barrier_.take(idx, now);
      } else {  // nothing left (a RELEASE discarded it): give the output back
        sw.crossbar_.disconnect(idx);
        sw.arbiter_.release(idx);
        sw.arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
        return;
      }
    }
    const Time t = tx.next_slot(sw.crossbar_.at_output(grant_time));
    if (now < t) { xmit_ev.at(t); return; }
    if (tx.stopped(now)) return;
    Flit f;
    f.packet = kNoPacket;
    f.data = bsending[bpos];
    f.head = bpos == 0;
    f.tail = bpos + 1 == bsending.size();
    tx.send(f, now);
    ++bpos;
    if (!f.tail) { xmit_ev.at(now + tx.channel()->timing().cp); return; }
    bsending.clear();
    bpos = 0;
    breq = false;
    sw.crossbar_.disconnect(idx);
    sw.arbiter_.release(idx);
    owner_sig.change(now, 0);
    sw.arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
    if (!bqueue.empty() || sw.barrier_.peek(idx)) sw.barrier_request(idx);
  }

  // Output side: send the next flit of the granted worm.
  void transmit() {
    xmit_ev.fired();
    const int src = sw.crossbar_.input_of(idx);
    if (src < 0) return;
    if (src == sw.barrier_input()) { transmit_barrier(); return; }
    Port& ip = *sw.ports_[src];
    if (ip.in.empty()) return;  // woken again when the next flit arrives
    const Time now = now_ps();
    const auto& e = ip.in.head();
    const Time t = tx.next_slot(sw.crossbar_.at_output(std::max(e.arrival, grant_time)));
    if (now < t) { xmit_ev.at(t); return; }
    if (tx.stopped(now)) return;  // woken by GO
    Flit f = e.flit;
    f.head = first;  // after the route byte is stripped, the next flit heads the worm here
    first = false;
    ip.in.pop(now);
    tx.send(f, now);
    if (f.tail) {
      sw.on_tail_sent(src, idx, now);
    } else {
      xmit_ev.at(now + tx.channel()->timing().cp);
    }
  }

  Switch& sw;
  int idx;
  FlowController in;
  LinkTransmitter tx;
  Wakeup route_ev, xmit_ev;
  In state = In::Idle;
  int out = -1;
  std::uint32_t packet = 0;   // input side: the worm being routed or forwarded
  bool first = false;         // output side: next flit sent is the worm's first on this link
  std::vector<std::uint8_t> collected;                // input side: barrier packet being received
  std::deque<std::vector<std::uint8_t>> bqueue;       // output side: barrier responses to send
  std::vector<std::uint8_t> bsending;                 // output side: barrier packet on the wire
  std::size_t bpos = 0;
  bool breq = false;                                  // barrier unit requested this output
  Wakeup barrier_ev;                                  // a unit message becomes ready for this output
  Time free_since = 0;        // when the previous worm's tail left this input
  Time grant_time = 0;        // output side: when the current worm was granted this output
  TraceSignal owner_sig;
};

Switch::Switch(sc_core::sc_module_name name, const SwitchConfig& cfg)
    : sc_module(name), cfg_(cfg),
      arbiter_(check_ports(cfg.ports, this->name()) + 1, cfg.ports,
               make_output_arbiter(cfg.arbiter, cfg.ports + 1, cfg.ports, cfg.seed, this->name())),
      crossbar_(cfg.ports, cfg.sd), barrier_(cfg.ports, cfg.barrier) {
  for (int p = 0; p < cfg.ports; ++p) ports_.push_back(std::make_unique<Port>(fmt::format("p{}", p).c_str(), *this, p));
  barrier_.set_output_ready([this](int port, Time at) { ports_[static_cast<std::size_t>(port)]->barrier_ev.at(at); });
  SC_METHOD(arbitrate_proc);
  sensitive << arbitrate_ev_;
  dont_initialize();
}

Switch::~Switch() = default;

int Switch::check_ports(int ports, const char* name) {
  if (ports < 2 || ports > 64) throw UserError(fmt::format("{}: switch.ports={} out of range (2..64)", name, ports));
  return ports;
}

void Switch::barrier_request(int out) {
  Port& op = *ports_[static_cast<std::size_t>(out)];
  if (op.breq || !op.tx.connected()) return;
  op.breq = true;
  request_output(barrier_input(), out);
}

void Switch::barrier_packet(int port, const std::vector<std::uint8_t>& bytes, Time now) {
  using namespace barrier;
  const std::uint8_t lead = bytes.empty() ? 0 : bytes[0];
  if (lead == kLeadMessage) {
    if (auto m = decode_message(bytes)) {
      if (auto why = barrier_.receive(port, m->encode(), now)) {
        const auto sp = spill_.find(m->gid);
        if (*why == DropReason::UnknownGid && sp != spill_.end()) {  // fallback: to the node keeping the register
          ports_[static_cast<std::size_t>(sp->second)]->bqueue.push_back(encode_spilled(port, *m));
          barrier_request(sp->second);
          ++barrier_spilled_;
          return;
        }
        ++barrier_drops_;
        log::debug("{}: barrier message from p{} dropped: {}", name(), port, to_string(*why));
      }
      return;
    }
  } else if (lead == kLeadConfig) {
    if (auto c = decode_config(bytes)) {
      const ConfigResponse r = barrier_.configure(*c, now);
      // Spill table: a group refused for lack of registers is kept by the node that asked.
      if (c->op == ConfigOp::Alloc && r.status == ConfigStatus::Full) spill_[c->gid] = port;
      if (c->op == ConfigOp::Release) spill_.erase(c->gid);
      ports_[static_cast<std::size_t>(port)]->bqueue.push_back(encode_response(r, c->gid));
      barrier_request(port);
      return;
    }
  }
  ++barrier_drops_;
  log::debug("{}: malformed barrier packet ({} bytes, lead 0x{:02x}) on p{} dropped", name(), bytes.size(), lead, port);
}

void Switch::attach_output(int port, LinkChannel* ch) {
  Port& p = *ports_.at(port);
  p.tx.attach(ch, [&p](Time eff) { p.xmit_ev.at(eff); });
}
void Switch::attach_input(int port, LinkChannel* ch) { ports_.at(port)->in.set_upstream(ch); }
bool Switch::port_connected(int port) const { return ports_.at(port)->tx.connected(); }
FlitReceiver* Switch::input_receiver(int port) { return ports_.at(port).get(); }
ControlReceiver* Switch::output_control(int port) { return &ports_.at(port)->tx; }
FlowController& Switch::input_buffer(int port) { return ports_.at(port)->in; }

LinkPort Switch::link_port(int port) {
  LinkPort lp;
  lp.name = fmt::format("{}.p{}", name(), port);
  lp.attach_output = [this, port](LinkChannel* ch) { attach_output(port, ch); };
  lp.attach_input = [this, port](LinkChannel* ch) { attach_input(port, ch); };
  lp.output_control = output_control(port);
  lp.input = input_receiver(port);
  lp.input_fc = &cfg_.fc;
  lp.input_sd = cfg_.sd;
  return lp;
}

void Switch::declare_traces() {
  for (auto& p : ports_) {
    p->in.declare_traces();
    if (p->tx.channel()) p->owner_sig.declare(std::string(p->name()) + ".out", "owner", 7);
  }
}

void Switch::request_output(int in, int out) {
  arbiter_.request(in, out, now_ps());
  arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Switch::on_tail_sent(int in, int out, Time now) {
  crossbar_.disconnect(out);
  arbiter_.release(out);
  Port& ip = *ports_[in];
  ip.state = Port::In::Idle;
  ip.out = -1;
  ip.free_since = now;
  ip.route_ev.now();
  ports_[out]->owner_sig.change(now, 0);
  arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Switch::arbitrate_proc() {
  const Time now = now_ps();
  arbiter_.arbitrate([&](int in, int out) {
    crossbar_.connect(in, out);
    Port& op = *ports_[out];
    if (in != barrier_input()) ports_[in]->state = Port::In::Forwarding;
    op.grant_time = now;
    op.first = true;
    op.owner_sig.change(now, static_cast<std::uint64_t>(in + 1));
    if (grant_observer_) grant_observer_(now, in, out);
    op.xmit_ev.now();
    op.tx.work_at(now);
  });
}

std::vector<Switch::WormInfo> Switch::worms(Time now) const {
  std::vector<WormInfo> v;
  for (int i = 0; i < cfg_.ports; ++i) {
    const Port& p = *ports_[i];
    if (p.state == Port::In::Idle || p.state == Port::In::Collecting) continue;  // barrier packets never block
    WormInfo w;
    w.input = i;
    w.waiting = p.state == Port::In::Waiting;
    w.output = p.out;
    w.holder = w.waiting ? arbiter_.owner(p.out) : -1;
    if (w.holder == barrier_input()) w.holder = -1;  // the barrier unit holds it for a few flits
    w.packet = p.packet;
    w.buffered = p.in.occupancy(now);
    w.stop_sent = p.in.stopping();
    w.output_stopped = !w.waiting && ports_[p.out]->tx.stopped_at(now);
    v.push_back(w);
  }
  return v;
}

}  // namespace sanvp
