#include "hw/switch/switch.hpp"
#include "hw/switch/switch_port.hpp"

#include <deque>

#include <fmt/format.h>

#include "hw/barrier/wire_format.hpp"
#include "hw/base/error.hpp"
#include "hw/base/log.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp {

SwitchConfig SwitchConfig::from_params(ParamValues& pv, const std::string& path, int ports) {
  SwitchConfig c;
  c.read_params(pv, path);
  c.ports = ports;  // the topology's switch, not switch.ports
  if (!make_output_arbiter(c.arbiter, 2, 2, 0, path))
    pv.fail(path, "switch", "arbiter", fmt::format("unknown policy '{}' (available: {})", c.arbiter, output_arbiter_names()));
  c.fc = FlowControlConfig::from_params(pv, path);
  c.barrier = barrier::BarrierUnitConfig::from_params(pv, path);
  return c;
}

Switch::Switch(sc_core::sc_module_name name, const SwitchConfig& cfg)
    : sc_module(name), cfg_(cfg),
      arbiter_(check_ports(cfg.ports, this->name()) + 1, cfg.ports,
               make_output_arbiter(cfg.arbiter, cfg.ports + 1, cfg.ports, cfg.seed, this->name())),
      crossbar_(cfg.ports, cfg.sd), barrier_(cfg.ports, cfg.barrier) {
  for (int p = 0; p < cfg.ports; ++p) ports_.push_back(std::make_unique<Port>(fmt::format("p{}", p).c_str(), *this, p));
  barrier_.set_output_ready([this](int port, Time at) { ports_[static_cast<std::size_t>(port)]->barrier.ready_ev.at(at); });
  SC_METHOD(arbitrate_proc);
  sensitive << arbitrate_ev_;
  dont_initialize();
}

Switch::~Switch() = default;

int Switch::check_ports(int ports, const char* name) {
  if (ports < 2 || ports > 64) throw UserError(fmt::format("{}: switch.ports={} out of range (2..64)", name, ports));
  return ports;
}

void Switch::log_bad_route(int in, std::uint32_t packet, int port) const {
  log::debug("{}.p{}: worm of packet {} routed to {} port {}: consumed", name(), in, packet,
             port >= cfg_.ports ? "nonexistent" : "unconnected", port);
}

void Switch::barrier_request(int out) { ports_[static_cast<std::size_t>(out)]->barrier.request(); }

void Switch::barrier_packet(int port, const std::vector<std::uint8_t>& bytes, Time now) {
  using namespace barrier;
  const std::uint8_t lead = bytes.empty() ? 0 : bytes[0];
  if (lead == kLeadMessage) {
    if (auto m = decode_message(bytes)) {
      if (auto why = barrier_.receive(port, m->encode(), now)) {
        const auto sp = spill_.find(m->gid);
        if (*why == DropReason::UnknownGid && sp != spill_.end()) {  // fallback: to the node keeping the register
          ports_[static_cast<std::size_t>(sp->second)]->barrier.queue(encode_spilled(port, *m));
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
      ports_[static_cast<std::size_t>(port)]->barrier.queue(encode_response(r, c->gid));
      barrier_request(port);
      return;
    }
  }
  ++barrier_drops_;
  log::debug("{}: malformed barrier packet ({} bytes, lead 0x{:02x}) on p{} dropped", name(), bytes.size(), lead, port);
}

void Switch::attach_output(int port, LinkChannel* ch) {
  OutputPort& op = ports_.at(port)->output;
  op.tx.attach(ch, [&op](Time eff) { op.xmit_ev.at(eff); });
}
void Switch::attach_input(int port, LinkChannel* ch) { ports_.at(port)->input.in.set_upstream(ch); }
bool Switch::port_connected(int port) const { return ports_.at(port)->output.tx.connected(); }
FlitReceiver* Switch::input_receiver(int port) { return ports_.at(port).get(); }
ControlReceiver* Switch::output_control(int port) { return &ports_.at(port)->output.tx; }
FlowController& Switch::input_buffer(int port) { return ports_.at(port)->input.in; }

LinkPort Switch::link_port(int port) {
  LinkPort lp;
  lp.name = fmt::format("{}.p{}", name(), port);
  lp.attach_output = [this, port](LinkChannel* ch) { attach_output(port, ch); };
  lp.attach_input = [this, port](LinkChannel* ch) { attach_input(port, ch); };
  lp.output_control = output_control(port);
  lp.input = input_receiver(port);
  lp.input_fc = &cfg_.fc;
  lp.input_sd = cfg_.sd;
  lp.lookahead_buffer = &ports_.at(port)->input.in;
  return lp;
}

void Switch::declare_traces() {
  for (auto& p : ports_) {
    p->input.in.declare_traces();
    if (p->output.tx.channel())  // input + 1 <= ports
      p->output.owner.declare(std::string(p->name()) + ".out", "owner", bits_for(ports_.size()));
  }
}

void Switch::request_output(int in, int out) {
  arbiter_.request(in, out, now_ps());
  arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Switch::on_tail_sent(int in, int out, Time now) {
  ports_[static_cast<std::size_t>(in)]->input.freed(now);
  ports_[static_cast<std::size_t>(out)]->output.released(now);
}

void Switch::arbitrate_proc() {
  const Time now = now_ps();
  arbiter_.arbitrate([&](int in, int out) {
    crossbar_.connect(in, out);
    OutputPort& op = ports_[static_cast<std::size_t>(out)]->output;
    if (in != barrier_input()) ports_[static_cast<std::size_t>(in)]->input.state = InputPort::State::Forwarding;
    op.granted(in, now);
    if (grant_observer_) grant_observer_(now, in, out);
    op.xmit_ev.now();
    op.tx.work_at(now);
  });
}

std::vector<Switch::WormInfo> Switch::worms(Time now) const {
  std::vector<WormInfo> v;
  for (int i = 0; i < cfg_.ports; ++i) {
    const InputPort& p = ports_[static_cast<std::size_t>(i)]->input;
    if (p.state == InputPort::State::Idle || p.state == InputPort::State::Collecting || p.state == InputPort::State::Discarding)
      continue;  // barrier packets and consumed worms never block
    WormInfo w;
    w.input = i;
    w.waiting = p.state == InputPort::State::Waiting;
    w.output = p.out;
    w.holder = w.waiting ? arbiter_.owner(p.out) : -1;
    if (w.holder == barrier_input()) w.holder = -1;  // the barrier unit holds it for a few flits
    w.packet = p.packet;
    w.buffered = p.in.occupancy(now);
    w.stop_sent = p.in.stopping();
    w.output_stopped = !w.waiting && ports_[static_cast<std::size_t>(p.out)]->output.tx.stopped_at(now);
    v.push_back(w);
  }
  return v;
}

}  // namespace sanvp
