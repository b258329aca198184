#include "hw/switch/output_port.hpp"

#include <algorithm>

#include "hw/base/sim_time.hpp"
#include "hw/switch/switch_port.hpp"

namespace sanvp {

OutputPort::OutputPort(Switch& sw, int index) : sw_(sw), idx_(index) {
  tx.attach(nullptr, {});
  tx.set_work([this] { return pending_work(); });
}

LinkTransmitter::Work OutputPort::pending_work() const {
  const int src = sw_.crossbar_.input_of(idx_);
  if (src < 0) return {};
  if (src == sw_.barrier_input()) return {sw_.crossbar_.at_output(grant_time), kNoPacket};
  const FlowController& b = sw_.ports_[static_cast<std::size_t>(src)]->input.in;
  if (b.empty()) return {};
  return {sw_.crossbar_.at_output(std::max(b.head().arrival, grant_time)), b.head().flit.packet};
}

void OutputPort::granted(int input, Time now) {
  grant_time = now;
  first_ = true;
  owner.change(now, static_cast<std::uint64_t>(input + 1));
}

void OutputPort::released(Time now) {
  sw_.crossbar_.disconnect(idx_);
  sw_.arbiter_.release(idx_);
  owner.change(now, 0);
  sw_.arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
}

// Send the next flit of the granted worm (or of the barrier unit's packet).
void OutputPort::transmit() {
  xmit_ev.fired();
  const int src = sw_.crossbar_.input_of(idx_);
  if (src < 0) return;
  Switch::Port& self = *sw_.ports_[static_cast<std::size_t>(idx_)];
  if (src == sw_.barrier_input()) { self.barrier.transmit(); return; }
  FlowController& in = sw_.ports_[static_cast<std::size_t>(src)]->input.in;
  if (in.empty()) return;  // woken again when the next flit arrives
  const Time now = now_ps();
  const auto& e = in.head();
  const Time t = tx.next_slot(sw_.crossbar_.at_output(std::max(e.arrival, grant_time)));
  if (now < t) { xmit_ev.at(t); return; }
  if (tx.stopped(now)) return;  // woken by GO
  Flit f = e.flit;
  f.head = first_;  // after the route byte is stripped, the next flit heads the worm here
  first_ = false;
  in.pop(now);
  tx.send(f, now);
  if (f.tail) {
    sw_.on_tail_sent(src, idx_, now);
  } else {
    xmit_ev.at(now + tx.channel()->timing().cp);
  }
}

}  // namespace sanvp
