#include "hw/switch/output_port.hpp"

#include <algorithm>

#include "hw/link/send_ahead.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/switch/switch_port.hpp"

namespace sanvp {

OutputPort::OutputPort(Switch& sw, int index) : idx_(index), sd_(sw.crossbar_.sd()), sw_(sw) {
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
  src_ = input;
  in_ = input == sw_.barrier_input() ? nullptr : &sw_.ports_[static_cast<std::size_t>(input)]->input.in;
  grant_time = now;
  first_ = true;
  owner.change(now, static_cast<std::uint64_t>(input + 1));
}

void OutputPort::released(Time now) {
  src_ = -1;
  in_ = nullptr;
  sw_.crossbar_.disconnect(idx_);
  const bool waited_for = sw_.arbiter_.release(idx_);
  owner.change(now, 0);
  if (waited_for) sw_.arbitrate_ev_.notify(sc_core::SC_ZERO_TIME);
}

// Departures before the returned time may be sent in this activation (none if <= now): what
// must hold for the whole activation. Nobody may watch the flits, the transmitter or either
// buffer's occupancy; the receiver takes flits ahead (a switch input or a test endpoint).
inline Time OutputPort::ahead_limit(const FlowController& in, Time now) const {
  if (in.occupancy_traced()) return 0;
  return downstream_ahead_limit(tx, now);
}

// May the buffer's head, due at t > now, be sent now stamped t? Exact if nothing that decides
// its departure or that anyone reads can change in (now, t] (docs/architecture.md, lookahead).
inline bool OutputPort::may_send_ahead(const FlowController& in, Time t, Time now) const {
  if (in.head().flit.tail) return false;  // the tail releases the output and the input at its real time
  if (!downstream_room(tx, t, now)) return false;  // a STOP on its way or possible by t
  // After our input sent STOP, its GO is decided by the pops (pop_ahead): exact if nothing can
  // arrive before the GO, i.e. the STOP is in force at the input's sender, and no GO is due yet.
  if (in.stopping()) return in.go_due() == kNever && upstream_stopped(in, now);
  // Our input sends no STOP by t (so these pops send no GO): the flits that can be in it by t
  // (those pushed so far, and those its link can still deliver) stay below ks.
  const int ks = in.ks();
  return upstream_below(in, t, now, ks - in.arrived_by(t, now, ks));
}

// Is the STOP of `in` in force at its sender now? Then the sender sends nothing until the GO
// acts on it (ld + 2 fc after the GO), and every flit that arrives before then is pushed.
inline bool OutputPort::upstream_stopped(const FlowController& in, Time now) {
  const LinkChannel* up = in.upstream();
  const LinkTransmitter* sender = up ? up->transmitter() : nullptr;
  return sender && sender->stopped_at(now);
}

// Are the flits not pushed yet into `in` that can arrive by t fewer than `room`? Its link delivers
// one per cp, the first leaving no earlier than now nor one cp after the last flit its transmitter
// sent (that one and those before are pushed already: arrived_by counts them). A product, not
// the count's division: this is asked for every flit sent ahead.
inline bool OutputPort::upstream_below(const FlowController& in, Time t, Time now, int room) {
  if (room <= 0) return false;
  const LinkChannel* up = in.upstream();
  if (!up) return true;
  const LinkTiming& lt = up->timing();
  Time first = now;
  const LinkTransmitter* sender = up->transmitter();
  if (sender && sender->last_departure() != kNever) first = std::max(now, sender->last_departure() + lt.cp);
  first += lt.ld;
  if (t < first) return true;
  // (t - first) / cp + 1 flits can arrive: fewer than room iff t - first < (room - 1) * cp.
  return t - first < static_cast<Time>(room - 1) * lt.cp;
}

// The helpers below are used by transmit alone, once per flit: inline, so no call is paid per flit.

// Sends the buffer's head departing at t (now, or later when sent ahead); true if it was the
// tail (the output is released).
inline bool OutputPort::send_head(FlowController& in, int src, Time now, Time t) {
  Flit f = in.head().flit;
  f.head = first_;  // after the route byte is stripped, the next flit heads the worm here
  first_ = false;
  if (t > now) in.pop_ahead(t, now);
  else in.pop(now);
  tx.send(f, t);
  if (!f.tail) return false;
  sw_.on_tail_sent(src, idx_, now);
  return true;
}

// Send the granted worm's flits that are due (or of the barrier unit's packet). Every return
// leaves a wake-up behind: armed for the next flit's slot, starved (the next arrival wakes it),
// stopped (GO wakes it), or the output released.
void OutputPort::transmit() {
  xmit_ev.fired();
  starved = false;
  const int src = src_;  // the crossbar's input_of(idx_)
  if (src < 0) return;
  if (!in_) { sw_.ports_[static_cast<std::size_t>(idx_)]->barrier.transmit(); return; }
  FlowController& in = *in_;
  const Time now = now_ps();
  const Time ahead = ahead_limit(in, now);
  while (!in.empty()) {
    const Time t = tx.next_slot(std::max(in.head().arrival, grant_time) + sd_);  // the crossbar's at_output
    if (now < t) {
      if (t >= ahead || !may_send_ahead(in, t, now)) { xmit_ev.at(t); return; }
    } else if (tx.stopped(now)) {
      return;  // woken by GO
    }
    if (send_head(in, src, now, std::max(now, t))) return;
  }
  starved = true;  // woken again when the next flit arrives
}

}  // namespace sanvp
