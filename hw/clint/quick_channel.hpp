// QuickChannel: Clint's best-effort quick channel, architectures Q1 and Q2 of the paper.
//   NIC (per host): quick initiator with `send_buffers` NIC send buffers filled in SendReg order
//     from `host_send_buffers` HostSendBuffers (Figure 2 host interface, hw/clint/host_interface.hpp),
//     quick target with `recv_buffers` host receive buffers (RecvQueue, RecvCmplReg).
//     qreq = 36 bytes, qack = 4 bytes on a 0.528 Gbit/s serial link. The transmitter sends a
//     pending qack before any qreq. Q2 (`interleave`) does not wait: a qack is interleaved into
//     the qreq being sent, which is stretched by the qack's length.
//   Quick switch: pipelined crossbar, `switch_latency`, no buffers for qreq. First come, first
//     considered per output; simultaneous heads are resolved round robin; losers are dropped.
//     qack/back/cfg/gnt have priority: in Q1 a qreq on the output is dropped when an ack
//     arrives and a qreq arriving behind an ack is dropped; in Q2 the ack is interleaved and no
//     qreq is dropped because of an ack. Two acks for one output never drop: the second
//     follows the first (4-byte staging register; the paper does not say).
//   Protocol: the target delivers a qreq only with the next sequence number of its pair (in
//     order), acknowledges duplicates again without delivering, drops qreqs that overtook a lost
//     one (their initiator times out), and NACKs when it has no receive buffer. The initiator
//     retransmits after the fixed `timeout`, or at once after a NACK, plus a uniform random
//     back-off in [0, backoff].
//   Bulk-channel signalling (cfg, gnt, back) is modelled as the paper does: as a loss of
//     bandwidth, here a window of `bulk_bytes` byte times at every bulk-slot boundary during
//     which no host starts a quick packet that would overlap it.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "hw/clint/agenda.hpp"
#include "hw/clint/host_interface.hpp"
#include "hw/clint/stats.hpp"
#include "hw/clint/traffic.hpp"
#include "hw/base/params.hpp"
#include "hw/base/rng.hpp"
#include "hw/clint/quick_channel_params.hpp"

namespace sanvp::clint {

// Link timing, packet sizes, buffers, retransmission and error rate: quick_channel.params.yaml.
struct QuickConfig : QuickParams {
  Time bulk_slot = 2086 * 4 * kNs;  // from the bulk channel's configuration
  Time qreq_time() const { return static_cast<Time>(qreq_bytes) * byte_time; }
  Time qack_time() const { return static_cast<Time>(qack_bytes) * byte_time; }
  static QuickConfig from(ParamValues& pv, Time bulk_slot);
  void validate() const;
};

class QuickChannel : public sc_core::sc_module {
 public:
  QuickChannel(sc_core::sc_module_name nm, const QuickConfig& cfg, const TrafficConfig& traffic, int hosts,
               std::uint64_t seed, Time warmup);

  void set_manual_traffic(bool manual) { manual_ = manual; }
  // Quick-channel enable vector of `target`: a qreq from a disabled initiator is discarded by
  // the target NIC without an answer (the initiator keeps retrying, as for a dead target).
  void set_enable(int target, int initiator, bool enabled);
  // Test hook: the next `count` qreqs from src to dst arrive with a CRC error.
  void corrupt_next(int src, int dst, int count = 1);
  void inject(int src, int dst, Time born);  // before the simulation starts
  std::function<void(const Packet&, Time)> on_deliver;   // qreq handed to the target host
  std::function<void(const Packet&, Time)> on_complete;  // qack freed the initiator's buffer
  const ChannelStats& stats() const { return stats_; }
  std::uint64_t backlog() const;

 private:
  struct Tx {  // one qreq transmission attempt
    Packet pkt;
    int buf;
    Time start = 0, len = 0;
    bool dropped = false, on_output = false, crc_ok = true;
    std::uint64_t version = 0;  // delivery event generation (interleaving stretches it)
    Time out_start = 0;         // head through the output
  };
  struct SendBuf { Packet pkt; int bf = -1; bool used = false, in_flight = false; Time ready = 0; std::uint64_t tx = 0; Time last_start = 0; bool sent = false; };
  struct Ack { int from, to; std::uint64_t tx; bool nack; };
  struct Node {
    Node(int host_send_buffers, int recv_buffers) : hif(host_send_buffers, recv_buffers) {}
    std::deque<Packet> queue;           // application packets without a host buffer
    HostInterface hif;
    std::vector<Packet> host_send_data; // HostSendBuffers contents, by bfId
    std::vector<SendBuf> send;
    std::deque<Ack> acks;               // waiting for the transmitter
    Time busy_until = 0;
    std::uint64_t busy_tx = 0;          // qreq being sent (0: none or an ack)
    std::uint64_t free_version = 0;     // transmitter-free event generation
    bool try_pending = false;
    std::vector<std::uint64_t> expected_seq;  // target side, per initiator
    std::unique_ptr<TrafficGen> gen;
    std::vector<std::uint64_t> manual_seq;
    std::vector<char> enable;           // quick enable vector (target side), per initiator
    std::vector<int> corrupt;           // forced CRC errors per target (initiator side)
  };
  struct Output {
    Time busy_until = 0;
    std::uint64_t cur_tx = 0;   // qreq on the output, 0 if an ack or idle
    bool cur_is_ack = false;
    int rr = 0;
    std::vector<std::uint64_t> contenders;  // qreq heads of this instant
    std::vector<Ack> ack_heads;
    bool resolve_pending = false;
  };

  void run();
  void generate(int h);
  void refill(int h);
  void tx_try(int h);
  void tx_free_event(int h);
  void send_ack(int h, const Ack& a, Time start);
  void head_at_switch(int out);
  void resolve(int out);
  void schedule_delivery(std::uint64_t tx);
  void deliver(std::uint64_t tx, std::uint64_t version);
  void ack_arrives(const Ack& a);
  void timeout(int h, int buf, std::uint64_t tx);
  void queue_ack(int h, const Ack& a);
  Time window_end_if_blocked(Time t, Time len) const;

  QuickConfig cfg_;
  int hosts_;
  Time warmup_;
  bool manual_ = false;
  Rng rng_, err_rng_;
  Agenda agenda_;
  std::vector<Node> nodes_;
  std::vector<Output> outs_;
  std::vector<Tx> txs_;  // index = tx id (0 unused)
  ChannelStats stats_;
};

}  // namespace sanvp::clint
