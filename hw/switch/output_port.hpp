// OutputPort: the output side of one switch port. A LinkTransmitter obeys the downstream
// STOP/GO; once the arbiter grants this output to an input, `transmit` moves that input's flits
// through the crossbar, one per character period, until the worm's tail has left. The flit
// first sent after the grant heads the worm on this link (the route byte stayed behind).
// Under a lookahead limit (hw/base/lookahead.hpp) one activation sends every flit whose exact
// departure nothing can change any more, stamped with that departure; the tail always leaves
// in its own activation.
#pragma once
#include <cstdint>

#include "hw/base/trace.hpp"
#include "hw/base/wakeup.hpp"
#include "hw/link/flow_controller.hpp"
#include "hw/link/transmitter.hpp"

namespace sanvp {

class Switch;

class OutputPort {
 public:
  OutputPort(Switch& sw, int index);

  void transmit();  // process body: wakes on xmit_ev
  void granted(int input, Time now);  // the arbiter gave this output to `input`
  void released(Time now);            // the worm or barrier packet has left
  // What this output should send next, for the work-conservation monitor.
  LinkTransmitter::Work pending_work() const;

 private:
  Time ahead_limit(const FlowController& in, Time now) const;
  bool may_send_ahead(const FlowController& in, Time t, Time now) const;
  static bool upstream_below(const FlowController& in, Time t, Time now, int room);
  static bool upstream_stopped(const FlowController& in, Time now);
  bool send_head(FlowController& in, int src, Time now, Time t);

  // What every activation reads comes first, beside the wake-up: on a large mesh the state of
  // hundreds of busy ports does not stay in the core's cache between two activations of one
  // (docs/bench.md, size scaling), so transmit reads the granted input's buffer from here
  // rather than through the switch's crossbar and port table.
  int src_ = -1;                  // the granted input (the crossbar's input_of), -1 when free
  int idx_;
  FlowController* in_ = nullptr;  // its buffer (null for the barrier unit)
  Time sd_;                       // the crossbar delay
  bool first_ = false;            // the next flit sent is the worm's first on this link

 public:
  bool starved = false;  // transmit found the granted input's buffer empty: its next arrival wakes it
  Time grant_time = 0;   // when the current worm was granted this output
  Wakeup xmit_ev;
  alignas(64) LinkTransmitter tx;  // its per-flit state in one line
  TraceSignal owner;     // input holding the output + 1, 0 when free

 private:
  Switch& sw_;
};

}  // namespace sanvp
