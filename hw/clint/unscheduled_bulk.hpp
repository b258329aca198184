// UnscheduledBulk: the paper's conventional bulk-channel alternatives, for comparison with the
// scheduled Clint channel (B4, BulkChannel). Hosts send from `send_buffers` NIC send buffers,
// oldest packet first, as soon as their link is free; the switch decides locally.
//   B1 (drop):            bufferless; an output busy with another breq drops the newcomer
//                         (simultaneous heads: round robin); the initiator resends after `timeout`.
//   B2 (back-pressure):   bufferless; a breq for a busy output is held at its input, which stalls
//                         the initiator's link (head-of-line blocking); a freed output takes the
//                         waiting inputs round robin and the stall is released over the wire.
//   B3 (output-buffered): `out_buffers` packet buffers per output port (cut-through when idle);
//                         a breq that finds them full is dropped and resent after `timeout`.
// Acknowledgments travel on the quick channel and are not the subject here: every delivered
// breq is acknowledged one back transit later. Delivery order per pair is not enforced in
// these comparison models (the paper's B1-B3 measure latency only).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/clint/agenda.hpp"
#include "hw/clint/bulk_channel.hpp"
#include "hw/clint/unscheduled_bulk_params.hpp"

namespace sanvp::clint {

enum class UnscheduledMode { Drop, BackPressure, OutputBuffered };

// out_buffers (B3) and timeout (clint_bulk.unsched_timeout): unscheduled_bulk.params.yaml.
struct UnscheduledConfig : UnscheduledParams {
  UnscheduledMode mode = UnscheduledMode::Drop;
  static UnscheduledConfig from(ParamValues& pv, UnscheduledMode mode);
};

class UnscheduledBulk : public sc_core::sc_module {
 public:
  UnscheduledBulk(sc_core::sc_module_name nm, const BulkConfig& bulk, const UnscheduledConfig& cfg,
                  const TrafficConfig& traffic, int hosts, std::uint64_t seed, Time warmup);
  const ChannelStats& stats() const { return stats_; }
  std::uint64_t backlog() const;

 private:
  struct SendBuf { Packet pkt; bool used = false, in_flight = false, sent = false; Time ready = 0, last_start = 0; std::uint64_t tx = 0; };
  struct Node {
    std::deque<Packet> queue;
    std::vector<SendBuf> send;
    Time busy_until = 0;
    bool stalled = false;  // B2: head held by back-pressure
    std::unique_ptr<TrafficGen> gen;
  };
  struct Output {
    Time busy_until = 0;
    int rr = 0;
    int held = 0;  // B3: occupied packet buffers
    std::vector<std::pair<int, int>> heads;   // (host, buffer) of this instant
    std::vector<std::pair<int, int>> waiting;  // B2: held inputs
    bool resolve_pending = false;
  };

  void run();
  void generate(int h);
  void refill(int h);
  void tx_try(int h);
  void resolve(int out);
  void forward(int h, int buf, Time out_start);  // breq goes through the output from out_start
  void output_free(int out);
  void timeout(int h, int buf, std::uint64_t tx);

  BulkConfig bulk_;
  UnscheduledConfig cfg_;
  int hosts_;
  Time warmup_;
  Agenda agenda_;
  std::vector<Node> nodes_;
  std::vector<Output> outs_;
  std::uint64_t tx_serial_ = 0;
  ChannelStats stats_;
};

}  // namespace sanvp::clint
