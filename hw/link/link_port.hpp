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

  bool complete() const { return attach_output && attach_input && output_control && input && input_fc; }
};

// Makes (and owns) the channel named by its path, with the link timing configured for it.
using ChannelFactory = std::function<LinkChannel*(const std::string& path)>;

// Joins a and b: channel <a>.out carries a -> b, then <b>.out carries b -> a. Each receive
// buffer is validated against the timing of the link feeding it (UserError naming <x>.in).
void connect(const LinkPort& a, const LinkPort& b, const ChannelFactory& make);

}  // namespace sanvp
