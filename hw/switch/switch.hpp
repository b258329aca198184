// Switch: an N-port Myrinet-class wormhole switch composed of ports (each an InputPort with its
// slack buffer, an OutputPort with its transmitter, and a BarrierPort), a RouterArbiter with an
// OutputArbiter policy (switch.arbiter), a Crossbar and a barrier unit. Each input strips
// the leading route byte of a worm and asks for the output it names; a granted worm streams
// through the crossbar and holds the output until its tail has left.
//
// Processes, all event-driven (no clock): per input, `route` runs when a worm's routing is
// decided, rd after its header reached the buffer head (for a barrier packet, as its flits
// arrive); per output, `transmit` runs for the flits that are due (several per activation under
// the lookahead); per switch, `arbitrate` runs in the delta after requests, or after a release
// that an input waits for.
//
// BTIN barrier support: a worm whose first flit is a barrier lead byte (>= 0xFC, see
// hw/barrier/wire_format.hpp) is not routed: the input consumes it as it arrives (a barrier
// packet never waits in the slack buffer) and hands it to the switch's BarrierUnit. The unit
// competes for outputs like one more input (round-robin with the worms) and sends its merged or
// replicated messages, and the answers to register writes, as 4- and 5-flit packets.
// Register exhaustion: when an ALLOC is answered FULL, a small spill table beside the unit
// (GID -> port, not part of the barrier unit's RTL) remembers the port the request came from;
// later messages of that group are sent there as spilled messages (wire_format.hpp), to the node
// that keeps the register in its memory. A RELEASE clears the entry.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/barrier/barrier_unit_tl.hpp"
#include "hw/link/link_port.hpp"
#include "hw/link/packet_ends.hpp"
#include "hw/link/transmitter.hpp"
#include "hw/switch/crossbar.hpp"
#include "hw/link/flow_controller.hpp"
#include "hw/switch/router_arbiter.hpp"
#include "hw/switch/switch_params.hpp"
#include "hw/base/wakeup.hpp"

namespace sanvp {

// ports, rd (routing delay), sd (crossbar delay) and arbiter: switch.params.yaml.
struct SwitchConfig : SwitchParams {
  FlowControlConfig fc;
  barrier::BarrierUnitConfig barrier;
  std::uint64_t seed = 1;               // the random policy's stream: the run seed (set by the builder)
  static SwitchConfig from_params(ParamValues& pv, const std::string& path, int ports);
};

class Switch : public sc_core::sc_module {
 public:

  // Observer of arbitration: (time, input, output).
  using GrantObserver = std::function<void(Time, int, int)>;

  SC_HAS_PROCESS(Switch);
  Switch(sc_core::sc_module_name name, const SwitchConfig& cfg);
  ~Switch() override;

  int ports() const { return cfg_.ports; }
  const SwitchConfig& config() const { return cfg_; }
  // Wiring: the channel this port sends on, and the channel whose flits arrive at this port.
  void attach_output(int port, LinkChannel* ch);
  void attach_input(int port, LinkChannel* ch);
  bool port_connected(int port) const;
  FlitReceiver* input_receiver(int port);
  ControlReceiver* output_control(int port);
  FlowController& input_buffer(int port);
  LinkPort link_port(int port);  // "<switch>.p<port>", for connect() (hw/link/link_port.hpp)
  const RouterArbiter& arbiter() const { return arbiter_; }
  const barrier::BarrierUnitTl& barrier_unit() const { return barrier_; }
  // Barrier packets this switch dropped: bad CRC or length, unknown lead, or refused by the unit.
  std::uint64_t barrier_drops() const { return barrier_drops_; }
  // Barrier messages sent to a node-memory register (spill table hits).
  std::uint64_t barrier_spilled() const { return barrier_spilled_; }
  // NIC packets (not test traffic) consumed by the barrier unit, for the end-of-run accounting.
  const PacketEnds& barrier_ends() const { return barrier_ends_; }

  // Worms consumed without being forwarded (Myrinet): route byte naming a missing or unconnected
  // port, or a runt that is only its route byte (a link fault's truncation). Barrier packets
  // are not counted here (barrier_drops).
  std::uint64_t consumed_worms() const { return consumed_worms_; }
  std::uint64_t bad_route_worms() const { return bad_route_worms_; }
  std::uint64_t runt_worms() const { return runt_worms_; }
  const PacketEnds& consumed_ends() const { return consumed_ends_; }  // for the end-of-run accounting
  // Sees every packet id whose worm ended in this switch without being forwarded (consumed, or
  // taken by the barrier unit): (packet, time).
  void set_consume_observer(std::function<void(std::uint32_t, Time)> fn) { consume_observer_ = std::move(fn); }

  void set_grant_observer(GrantObserver fn) { grant_observer_ = std::move(fn); }
  void declare_traces();
  // Every worm inside the switch at `now` (for the watchdog's hang report and cycle search).
  struct WormInfo {
    int input = -1;              // input port the worm entered by
    bool waiting = false;        // header waits for `output`; false: granted and streaming
    int output = -1;
    int holder = -1;             // waiting: input port whose worm holds `output` (-1: none)
    std::uint32_t packet = 0;    // packet id of the worm
    int buffered = 0;            // flits in the input buffer at `now`
    bool stop_sent = false;      // the input buffer has STOPped its upstream
    bool output_stopped = false; // streaming: downstream has STOPped the output
  };
  std::vector<WormInfo> worms(Time now) const;

 private:
  // The port's three sides (input_port, output_port, barrier_port) share the switch's arbiter,
  // crossbar and barrier unit.
  friend class InputPort;
  friend class OutputPort;
  friend class BarrierPort;
  struct Port;  // switch_port.hpp
  void arbitrate_proc();
  void request_output(int in, int out);
  void on_tail_sent(int in, int out, Time now);
  void barrier_packet(int port, const std::vector<std::uint8_t>& bytes, Time now);
  void barrier_request(int out);
  int barrier_input() const { return cfg_.ports; }  // the unit's index at the arbiter
  static int check_ports(int ports, const char* name);
  void log_bad_route(int in, std::uint32_t packet, int port) const;

  SwitchConfig cfg_;
  RouterArbiter arbiter_;
  Crossbar crossbar_;
  barrier::BarrierUnitTl barrier_;
  std::uint64_t barrier_drops_ = 0;
  std::uint64_t barrier_spilled_ = 0;
  PacketEnds barrier_ends_;
  std::uint64_t consumed_worms_ = 0, bad_route_worms_ = 0, runt_worms_ = 0;
  PacketEnds consumed_ends_;
  std::function<void(std::uint32_t, Time)> consume_observer_;
  std::map<std::uint8_t, int> spill_;  // GID -> port of the node keeping its register
  std::vector<std::unique_ptr<Port>> ports_;
  sc_core::sc_event arbitrate_ev_;
  GrantObserver grant_observer_;
};

}  // namespace sanvp
