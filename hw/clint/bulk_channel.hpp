// BulkChannel (architecture B4): the globally scheduled Clint bulk channel. Per host a bulk
// initiator and target (NIC hardware), one central scheduler and a bufferless flow-through bulk
// crossbar configured once per slot. Three-stage pipeline, one bulk slot per stage:
//   arb (slot k):   at the cfg snapshot every node sends a cfg packet (request vector = targets
//                   it holds a ready send buffer for, enable vector of its target); the
//                   scheduler's arbiter computes a matching; gnt packets return it. The
//                   snapshot lies `arb_lead` before the end of the slot.
//   trf (slot k+1): granted initiators send breq over the bulk switch, starting `guard` after
//                   the slot boundary (PLL lock / misalignment gap).
//   ack (slot k+2): targets return back (ACK or NACK) on the quick channel along the inverted
//                   schedule; a breq with a CRC error gets no answer and the initiator
//                   retransmits when its fixed timeout expires.
// In-order delivery per initiator-target pair is go-back-N: the target accepts only the next
// expected sequence number, acknowledges duplicates without delivering them again, and NACKs
// packets that overtook a lost one; the initiator re-queues a NACKed or timed-out packet and
// every later outstanding packet of that pair.
//
// Host interface (paper Figure 2, hw/clint/host_interface.hpp): the application's packets wait
// in an unbounded packet queue until the host gets one of `host_send_buffers` HostSendBuffers and
// writes (bfId, tgt) into SendReg; the NIC prefetches SendReg entries into `send_buffers`
// NICSendBuffers with a per-target cap (`per_target_max`), so a blocked target cannot fill the
// send buffers; an ACK posts SendCmplQueue, whose entries return the host buffer to the free
// list. A received breq takes a HostRecvBuffer from the NIC's free list (none: NACK), goes to
// RecvQueue, and its buffer returns through RecvCmplReg `host_recv_time` later.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/clint/arbiter.hpp"
#include "hw/clint/host_interface.hpp"
#include "hw/clint/quick_channel.hpp"  // declares the clint_quick.* link parameters
#include "hw/clint/stats.hpp"
#include "hw/clint/traffic.hpp"
#include "hw/base/params.hpp"
#include "hw/base/trace.hpp"
#include "hw/clint/bulk_channel_params.hpp"

namespace sanvp::clint {

// Link timing, slot, buffers, loss detection and error rate: bulk_channel.params.yaml. The
// quick link's timing (clint_quick.*) times the cfg and gnt packets.
struct BulkConfig : BulkParams {
  Time q_byte_time = QuickParams::kByteTime.def;
  Time q_switch_latency = QuickParams::kSwitchLatency.def;
  Time q_wire_delay = QuickParams::kWireDelay.def;
  static constexpr int kCfgBytes = 19, kGntBytes = 4, kBackBytes = 4;

  Time slot() const { return static_cast<Time>(breq_bytes) * byte_time + guard; }
  Time breq_time() const { return static_cast<Time>(breq_bytes) * byte_time; }
  // cfg out to the scheduler and gnt back: the part of arb_lead that is not arbitration.
  Time cfg_gnt_transit() const {
    return (kCfgBytes + kGntBytes) * q_byte_time + 2 * (q_wire_delay + q_switch_latency);
  }
  // back from target to initiator through the quick switch.
  Time back_transit() const { return kBackBytes * q_byte_time + 2 * q_wire_delay + q_switch_latency; }
  static BulkConfig from(ParamValues& pv);
  void validate() const;  // UserError if the pipeline cannot work with these values
};

class BulkChannel : public sc_core::sc_module {
 public:
  BulkChannel(sc_core::sc_module_name nm, const BulkConfig& cfg, const TrafficConfig& traffic, int hosts,
              std::unique_ptr<BulkArbiter> arbiter, std::uint64_t seed, Time warmup);

  // Enable vector of `target`: whether it accepts packets from `initiator` (cfg packet field).
  void set_enable(int target, int initiator, bool enabled);
  // Test hooks: corrupt the CRC of the next `count` breq from src to dst; inject packets by hand
  // (disables the generator of that host when `manual` is set).
  void corrupt_next(int src, int dst, int count = 1);
  void set_manual_traffic(bool manual) { manual_ = manual; }
  void inject(int src, int dst, Time born);  // before the simulation starts, in `born` order
  // Called for every packet the target hands to its host (after the in-order check).
  std::function<void(const Packet&, Time)> on_deliver;
  // Called when an initiator's back (ACK) completes a packet: SendCmplQueue entry.
  std::function<void(const Packet&, Time)> on_complete;

  const ChannelStats& stats() const { return stats_; }
  const BulkConfig& config() const { return cfg_; }
  int node_id(int host) const { return nodes_[static_cast<std::size_t>(host)].node_id; }
  std::uint64_t slots() const { return slot_; }
  // Packets generated but not yet completed (backlog) at the current time.
  std::uint64_t backlog() const;

 private:
  struct SendBuf {
    Packet pkt;
    int bf = -1;               // HostSendBuffer it was prefetched from
    bool in_flight = false;
    std::uint64_t tx_id = 0;   // transmission attempt that a response must match
    Time retry_at = 0;         // timeout expiry while in flight
    Time last_start = 0;
  };
  struct Node {
    Node(int host_send_buffers, int recv_buffers) : hif(host_send_buffers, recv_buffers) {}
    std::deque<Packet> packet_queue;            // application packets without a host buffer
    HostInterface hif;                          // SendReg, SendCmplQueue, RecvQueue, RecvCmplReg
    std::vector<Packet> host_send_data;         // HostSendBuffers contents, by bfId
    std::vector<SendBuf> send;                  // NICSendBuffers (size <= send_buffers)
    std::vector<int> per_target;                // send buffers held per target
    std::vector<std::uint64_t> expected_seq;    // target side, per initiator
    std::deque<Time> recv_release;              // when the host writes RecvCmplReg, in RecvQueue order
    std::vector<char> enable;                   // enable vector: initiators accepted
    std::vector<int> corrupt;                   // pending forced CRC errors per target
    std::vector<std::uint64_t> manual_seq;      // sequence numbers of injected packets
    std::unique_ptr<TrafficGen> gen;
    int node_id = -1;
  };
  struct Transfer {  // one breq on the bulk switch
    int src, dst;
    Packet pkt;
    std::uint64_t tx_id;
    bool crc_ok;
  };
  struct Response { int initiator, target; std::uint64_t tx_id; bool ack; Packet pkt; };

  void run();
  void refill(Node& n, Time now);
  void release_recv(Node& n, Time now);
  RequestMatrix snapshot(Time now);
  void start_transfers(const Grants& g, Time start);
  std::vector<Response> finish_transfers(Time end);
  void deliver_responses(const std::vector<Response>& r, Time at);
  void expire_timeouts(Time now);

  BulkConfig cfg_;
  int hosts_;
  std::unique_ptr<BulkArbiter> arbiter_;
  Rng err_rng_;
  Time warmup_;
  bool manual_ = false;
  std::vector<Node> nodes_;
  std::vector<Transfer> on_switch_;
  std::uint64_t slot_ = 0, tx_serial_ = 0;
  ChannelStats stats_;
  TraceSignal tr_slot_, tr_matched_;
  std::vector<TraceSignal> tr_grant_;
};

}  // namespace sanvp::clint
