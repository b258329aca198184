// InputPort: the input side of one switch port. Its slack buffer (FlowController, STOP/GO to the
// upstream sender) feeds the routing of the worm at its head: the route byte is read and
// stripped `rd` after the header reached the head, and the output it names is requested from
// the switch's arbiter. A barrier packet (lead byte >= 0xFC) is not routed: it is collected as
// it arrives and handed whole to the switch's barrier unit. A worm whose route byte names a port
// that does not exist or is unconnected, or that is nothing but its route byte (a runt left by
// a link fault), is consumed as it arrives and counted (Switch::consumed_worms), as a Myrinet
// switch does: never a simulator error.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/base/wakeup.hpp"
#include "hw/link/flow_controller.hpp"

namespace sanvp {

class Switch;

class InputPort {
 public:
  enum class State { Idle, Waiting, Forwarding, Collecting, Discarding };

  // Built inside its port's module, so the buffer is named <switch>.p<k>.in.
  InputPort(Switch& sw, int index);

  void receive(const Flit& f, Time arrival) { in.push(f, arrival); }
  void route();  // process body: wakes on route_ev
  // The previous worm's tail has left: ready for the next header.
  void freed(Time now);

  FlowController in;
  Wakeup route_ev;
  State state = State::Idle;
  int out = -1;               // output requested or held
  std::uint32_t packet = 0;   // the worm being routed or forwarded
  Time free_since = 0;        // when the previous worm's tail left this input

 private:
  void on_new_head(Time arrival);
  void wake_route();
  static bool is_barrier_head(const FlowController::Entry& h);
  Time route_due(const FlowController::Entry& h) const;
  bool take_arrived(Time now, Flit& f);
  void collect();
  void discard();
  void consumed(std::uint32_t packet, Time now);

  Switch& sw_;
  int idx_;
  std::vector<std::uint8_t> collected_;  // barrier packet being received
};

}  // namespace sanvp
