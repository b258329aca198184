// Switch::Port: the module of one switch port (<switch>.p<k>), composed of its input side, its
// output side and what the barrier unit sends through it. It owns their processes, each on a
// Wakeup (several causes ask for wake-ups at different times, hw/base/wakeup.hpp; none may be
// lost). Private to the switch's implementation files.
#pragma once
#include <systemc>

#include "hw/switch/barrier_port.hpp"
#include "hw/switch/input_port.hpp"
#include "hw/switch/output_port.hpp"
#include "hw/switch/switch.hpp"

namespace sanvp {

struct Switch::Port : public sc_core::sc_module, public FlitReceiver {
  SC_HAS_PROCESS(Port);
  Port(sc_core::sc_module_name n, Switch& sw, int index)
      : sc_module(n), input(sw, index), output(sw, index), barrier(sw, index, output) {
    SC_METHOD(route);
    sensitive << input.route_ev.event();
    dont_initialize();
    SC_METHOD(transmit);
    sensitive << output.xmit_ev.event();
    dont_initialize();
    SC_METHOD(barrier_ready);
    sensitive << barrier.ready_ev.event();
    dont_initialize();
  }

  void receive(const Flit& f, Time arrival) override { input.receive(f, arrival); }
  void route() { input.route(); }
  void transmit() { output.transmit(); }
  void barrier_ready() { barrier.ready(); }

  InputPort input;
  OutputPort output;
  BarrierPort barrier;
};

}  // namespace sanvp
