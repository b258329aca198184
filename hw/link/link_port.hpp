// LinkPort: one end of a full-duplex link as a device offers it (a switch port, a traffic
// endpoint, a NIC): where its transmitter attaches, where flits and STOP/GO arrive, and the
// receive buffer that the link's timing must suit. connect() joins two ports with two channels,
// the same way for every kind of device.
#pragma once
#include <functional>
#include <string>

#include "hw/link/flow_controller.hpp"
#include "hw/link/link.hpp"

namespace sanvp {

struct LinkPort {
  std::string name;                                 // "sw0.p3", "n2": channels are <name>.out
  std::function<void(LinkChannel*)> attach_output;  // the port transmits on this channel
  std::function<void(LinkChannel*)> attach_input;   // and receives from this one (its buffer's upstream)
  ControlReceiver* output_control = nullptr;        // STOP/GO from the far end acts here
  FlitReceiver* input = nullptr;                    // flits from the far end arrive here
  const FlowControlConfig* input_fc = nullptr;      // the receive buffer's flow control
  Time input_sd = 0;                                // routing delay behind the buffer (switch inputs)
  // Set when `input` only pushes each flit into this buffer or consumes it at once: flits may
  // then arrive ahead of their departure (LinkChannel::set_rx_buffer). Not for a NIC.
  const FlowController* lookahead_buffer = nullptr;

  bool complete() const { return attach_output && attach_input && output_control && input && input_fc; }
};

// The port of a device with a single link (a traffic endpoint, a NIC): anything with
// attach_output(ch), attach_input(ch) and output_control(); `input` receives its flits into `fc`.
template <class Device>
LinkPort single_link_port(Device& d, std::string name, FlitReceiver* input, const FlowControlConfig& fc) {
  LinkPort lp;
  lp.name = std::move(name);
  lp.attach_output = [&d](LinkChannel* ch) { d.attach_output(ch); };
  lp.attach_input = [&d](LinkChannel* ch) { d.attach_input(ch); };
  lp.output_control = d.output_control();
  lp.input = input;
  lp.input_fc = &fc;
  return lp;
}

// Makes (and owns) the channel named by its path, with the link timing configured for it.
using ChannelFactory = std::function<LinkChannel*(const std::string& path)>;

// Joins a and b: channel <a>.out carries a -> b, then <b>.out carries b -> a. Each receive
// buffer is validated against the timing of the link feeding it (UserError naming <x>.in).
void connect(const LinkPort& a, const LinkPort& b, const ChannelFactory& make);

}  // namespace sanvp
