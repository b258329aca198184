// BarrierPort: what the switch's barrier unit sends out of one port. Answers to register writes
// (and spilled messages) queue here; the unit's own message for the port is taken when the
// output is granted. The unit competes for the output like one more input; once granted it
// sends one 4- or 5-flit packet through the port's transmitter and gives the output back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "hw/base/wakeup.hpp"

namespace sanvp {

class Switch;
class OutputPort;

class BarrierPort {
 public:
  BarrierPort(Switch& sw, int index, OutputPort& out) : sw_(sw), idx_(index), out_(out) {}

  void ready();     // process body: a unit message became ready for this port (ready_ev)
  void transmit();  // called by the output's transmit while the unit holds the output
  void queue(std::vector<std::uint8_t> packet) { queue_.push_back(std::move(packet)); }
  bool has_queued() const { return !queue_.empty(); }
  // Asks for the output unless already asked (or the port is unconnected).
  void request();

  Wakeup ready_ev;

 private:
  void done(Time now);  // packet sent, or nothing left to send: give the output back

  Switch& sw_;
  int idx_;
  OutputPort& out_;
  std::deque<std::vector<std::uint8_t>> queue_;  // answers and spilled messages to send
  std::vector<std::uint8_t> sending_;            // the packet on the wire
  std::size_t pos_ = 0;
  bool requested_ = false;                       // the unit asked the arbiter for this output
};

}  // namespace sanvp
