// TrafficEndpoint: a packet source and sink standing in for a NIC. The source injects worms at one
// flit per character period and obeys STOP/GO; the sink checks framing, CRC-8 and every payload
// byte, and records delivery in the run's PacketTable. Traffic comes from explicit injections
// (tests) or a generator (uniform, permutation or hotspot destinations; Poisson, periodic or bursty
// arrivals; fixed payload or a size mix).
#pragma once
#include <deque>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "hw/endpoint/packet.hpp"
#include "hw/link/link_port.hpp"
#include "hw/link/packet_ends.hpp"
#include "hw/link/transmitter.hpp"
#include "hw/link/flow_controller.hpp"
#include "hw/base/rng.hpp"
#include "hw/base/wakeup.hpp"
#include "hw/endpoint/generation_clock.hpp"
#include "hw/endpoint/traffic_endpoint_params.hpp"

namespace sanvp {

// pattern, process, load, payload, sizes_text, burst, hotspot, hotspot_fraction, shift:
// traffic_endpoint.params.yaml.
struct TrafficConfig : TrafficParams {
  Time start = 0;
  Time stop = kMs;                  // no packet is created at or after this time
  // Message-size mix: (payload bytes, weight); empty = every packet has `payload` bytes.
  std::vector<std::pair<int, double>> sizes;
  std::vector<int> permutation;     // permutation: destination of each node (filled by Network)
  std::vector<int> targets;         // nodes that take test traffic (filled by Network when some nodes are NICs); empty = all
  static TrafficConfig from_params(ParamValues& pv, const std::string& path);
  double mean_payload() const;
};

class TrafficEndpoint : public sc_core::sc_module, public FlitReceiver {
 public:

  struct Stats {
    std::uint64_t sent_packets = 0, sent_flits = 0, recv_packets = 0, recv_bytes = 0, errors = 0;
    std::uint64_t barrier_packets = 0;  // packets received from the switch's barrier unit
    std::uint64_t foreign_packets = 0;  // packets not of the test traffic (a NIC's): refused
    Time stalled_time = 0;  // time the source spent stopped with a flit ready
  };

  SC_HAS_PROCESS(TrafficEndpoint);
  // `clock` runs this endpoint's traffic generator (shared by the network's endpoints).
  TrafficEndpoint(sc_core::sc_module_name name, int id, PacketTable& table, GenerationClock& clock, std::uint64_t seed,
                  const FlowControlConfig& rx_fc);

  int id() const { return id_; }
  void attach_output(LinkChannel* ch);
  void attach_input(LinkChannel* ch) { fc_.set_upstream(ch); }
  ControlReceiver* output_control() { return &tx_; }
  FlowController& input_buffer() { return fc_; }
  LinkPort link_port();  // named after the module, for connect() (hw/link/link_port.hpp)

  // Source routes to every destination node id (empty vector = unreachable/self).
  void set_routes(std::vector<std::vector<std::uint8_t>> routes) { routes_ = std::move(routes); }
  // Queues one packet to `dst` created at `when` (>= now); returns its packet id.
  std::uint32_t inject(int dst, std::uint32_t payload, Time when);
  // Same with an explicit route (tests of bad routes and hand-made route sets).
  std::uint32_t inject_route(int dst, std::vector<std::uint8_t> route, std::uint32_t payload, Time when);
  // Queues a packet of exactly these bytes (no route, no scoreboard), e.g. a BTIN barrier
  // message or register write for the attached switch (hw/barrier/wire_format.hpp).
  void inject_raw(std::vector<std::uint8_t> bytes, Time when);
  // Sees every packet from a switch's barrier unit: (bytes, time its last flit arrived).
  void set_barrier_observer(std::function<void(const std::vector<std::uint8_t>&, Time)> fn) {
    barrier_observer_ = std::move(fn);
  }
  // Sees every packet delivered intact to this node: (packet id, time its tail arrived).
  void set_delivery_observer(std::function<void(std::uint32_t, Time)> fn) { delivery_observer_ = std::move(fn); }
  void start_traffic(const TrafficConfig& cfg, int nodes);
  // The sink refuses to consume during [from, to): its slack buffer fills and STOPs the link.
  void pause_receive(Time from, Time to) { pauses_.emplace_back(from, to); }

  // Observer of the source's first blocked slot: called with the time the source wanted to send
  // but was held by STOP.
  void set_stall_observer(std::function<void(Time)> fn) { stall_observer_ = std::move(fn); }
  const Stats& stats() const { return stats_; }
  const PacketEnds& foreign_ends() const { return foreign_ends_; }  // for the end-of-run accounting
  std::size_t queued() const { return queue_.size() + (cur_ ? 1 : 0); }
  // Ids of the packets waiting in the source queue (raw packets excluded).
  std::vector<std::uint32_t> queued_packets() const {
    std::vector<std::uint32_t> v;
    for (const auto& o : queue_) if (o.id != kNoPacket) v.push_back(o.id);
    return v;
  }
  // The packet the source is transmitting (-1: none) and how many of its flits have left.
  std::int64_t sending_packet() const { return cur_ ? static_cast<std::int64_t>(out_.id) : -1; }
  std::uint32_t sending_flits() const { return cur_ ? pos_ : 0; }

 private:
  struct Outgoing {
    std::uint32_t id;                 // packet id, or kNoPacket for a raw packet
    std::vector<std::uint8_t> route;  // route bytes (test packets)
    std::vector<std::uint8_t> raw;    // every byte of a raw packet (barrier traffic)
    Time created;
  };
  void receive(const Flit& f, Time arrival) override;
  void consume(const Flit& f, Time at);
  bool consume_payload(const Flit& f);
  Time pause_end(Time t) const;
  void transmit();
  void generate();
  void plan_next(Time now, bool first);
  int pick_destination();
  std::uint32_t pick_payload();
  void drain();
  void begin_packet();
  void send_flit(Time t);
  std::uint8_t flit_byte(std::uint32_t j);

  int id_;
  PacketTable& table_;
  Rng rng_;
  LinkTransmitter tx_;
  FlowController fc_;
  std::vector<std::vector<std::uint8_t>> routes_;
  std::deque<Outgoing> queue_;
  bool cur_ = false;
  Outgoing out_;
  std::uint32_t pos_ = 0;
  std::uint8_t crc_ = 0;
  // Of out_, copied from its record by begin_packet: wire length, route bytes, payload bytes.
  std::uint32_t out_len_ = 0, out_route_len_ = 0, out_payload_len_ = 0;
  std::uint32_t out_payload_at_ = 0, out_payload_end_ = 0;  // flits [at, end) carry the payload
  PayloadReader out_payload_;
  bool was_stopped_ = false;
  Time stop_began_ = 0;
  std::uint32_t next_seq_ = 0;
  Wakeup xmit_ev_, drain_ev_;  // several causes each (hw/base/wakeup.hpp)
  GenerationClock& clock_;     // wakes generate() (one cause: the generator's own next arrival)
  std::size_t clock_slot_ = 0;
  TrafficConfig traffic_;
  int nodes_ = 0;
  bool traffic_on_ = false;
  struct Planned { int dst = -1; std::vector<std::uint32_t> payloads; };  // empty: none yet
  Planned next_;  // the packet (bursty: the burst) the generator creates at its next wake-up
  Time last_consume_ = kNever;
  // receive side: the worm being received
  bool rx_active_ = false;
  std::uint32_t rx_pkt_ = 0, rx_pos_ = 0;
  std::uint8_t rx_crc_ = 0;
  std::uint32_t rx_body_ = 0;  // bytes of the worm covered by the CRC (type and payload)
  PayloadReader rx_payload_;
  bool rx_bad_ = false;
  bool rx_foreign_ = false;  // receiving a packet that is not in the table
  PacketEnds foreign_ends_;
  std::vector<std::pair<Time, Time>> pauses_;
  std::function<void(Time)> stall_observer_;
  std::function<void(const std::vector<std::uint8_t>&, Time)> barrier_observer_;
  std::function<void(std::uint32_t, Time)> delivery_observer_;
  bool raw_active_ = false;
  std::vector<std::uint8_t> raw_;
  Stats stats_;
};

}  // namespace sanvp
