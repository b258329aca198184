#include "hw/switch/input_port.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hw/barrier/wire_format.hpp"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/switch/switch_port.hpp"

namespace sanvp {

InputPort::InputPort(Switch& sw, int index) : in("in", sw.cfg_.fc), sw_(sw), idx_(index) {
  in.set_head_listener([this](Time arrival) { on_new_head(arrival); });
}

void InputPort::on_new_head(Time arrival) {
  if (state == State::Idle) {
    wake_route();
  } else if (state == State::Collecting || state == State::Discarding) {
    route_ev.at(arrival);
  } else if (state == State::Forwarding) {  // the granted output sends it: wake it if it waits for a flit
    OutputPort& op = sw_.ports_[static_cast<std::size_t>(out)]->output;
    if (op.starved) op.xmit_ev.at(arrival);
    op.tx.work_at(arrival);
  }
}

// Wakes route for the worm at the buffer head (state Idle): a barrier packet at its arrival,
// a worm when its route is decided, rd after it reached the head (route would find nothing to
// do earlier, so it is not woken before).
void InputPort::wake_route() {
  const auto& h = in.head();
  route_ev.at(is_barrier_head(h) ? h.arrival : route_due(h));
}

bool InputPort::is_barrier_head(const FlowController::Entry& h) {
  return h.flit.head && barrier::is_barrier_lead(h.flit.data);
}

// The routing of the worm whose header is `h` (at the buffer head) is decided rd after the
// header got there: its arrival, or the previous worm's departure if that was later.
Time InputPort::route_due(const FlowController::Entry& h) const {
  return std::max(h.arrival, free_since) + sw_.cfg_.rd;
}

// Route the worm at the buffer head rd after it got there.
void InputPort::route() {
  route_ev.fired();
  if (state == State::Collecting) { collect(); return; }
  if (state == State::Discarding) { discard(); return; }
  if (state != State::Idle || in.empty()) return;
  const Time now = now_ps();
  const auto& h = in.head();
  if (is_barrier_head(h)) {
    // Barrier traffic is consumed as it arrives, without routing.
    state = State::Collecting;
    collected_.clear();
    collect();
    return;
  }
  const Time decided = route_due(h);
  if (now < decided) { route_ev.at(decided); return; }
  if (!h.flit.head)
    throw SimError(fmt::format("{}.p{}: flit of packet {} at buffer head is not a worm header", sw_.name(), idx_, h.flit.packet));
  const int port = h.flit.data;
  const std::uint32_t pkt = h.flit.packet;
  const bool runt = h.flit.tail;
  in.pop(now);  // the route byte is consumed here
  if (runt) {  // nothing behind the route byte: consumed
    ++sw_.runt_worms_;
    consumed(pkt, now);
    if (!in.empty()) route_ev.now();
    return;
  }
  if (port >= sw_.cfg_.ports || !sw_.ports_[static_cast<std::size_t>(port)]->output.tx.connected()) {
    // Myrinet: a worm routed to a missing or unconnected port is consumed and counted.
    ++sw_.bad_route_worms_;
    sw_.log_bad_route(idx_, pkt, port);
    state = State::Discarding;
    packet = pkt;
    discard();
    return;
  }
  state = State::Waiting;
  out = port;
  packet = pkt;
  sw_.request_output(idx_, port);
}

// The head flit, popped, if it has arrived by `now`; otherwise false, woken at its arrival.
bool InputPort::take_arrived(Time now, Flit& f) {
  if (in.empty()) return false;
  const auto& h = in.head();
  if (h.arrival > now) {
    route_ev.at(h.arrival);
    return false;
  }
  f = h.flit;
  in.pop(now);
  return true;
}

// Barrier packet: take each flit at its arrival; the whole packet goes to the unit.
void InputPort::collect() {
  const Time now = now_ps();
  Flit f;
  while (take_arrived(now, f)) {
    collected_.push_back(f.data);
    if (f.tail) {
      state = State::Idle;
      free_since = now;
      if (f.packet != kNoPacket) {  // a NIC's packet (or a worm a link fault turned into one) ends here
        sw_.barrier_ends_.add(f.packet);
        if (sw_.consume_observer_) sw_.consume_observer_(f.packet, now);
      }
      sw_.barrier_packet(idx_, collected_, now);
      if (!in.empty()) route_ev.now();
      return;
    }
  }
}

// A worm being consumed: each flit is taken at its arrival, up to the tail.
void InputPort::discard() {
  const Time now = now_ps();
  Flit f;
  while (take_arrived(now, f)) {
    if (f.tail) {
      state = State::Idle;
      consumed(f.packet, now);
      if (!in.empty()) route_ev.now();
      return;
    }
  }
}

void InputPort::consumed(std::uint32_t pkt, Time now) {
  free_since = now;
  ++sw_.consumed_worms_;
  if (pkt != kNoPacket) {
    sw_.consumed_ends_.add(pkt);
    if (sw_.consume_observer_) sw_.consume_observer_(pkt, now);
  }
}

void InputPort::freed(Time now) {
  state = State::Idle;
  out = -1;
  free_since = now;
  if (!in.empty()) wake_route();  // else the next head wakes it (on_new_head)
}

}  // namespace sanvp
