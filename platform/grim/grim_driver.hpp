// GrimDriver: the host library of the GRIM message layer (firmware/grim; the contract is
// firmware/grim/grim_proto.h). Send queue and receive queue in NIC SRAM written by PIO, a
// completion queue in host memory written by the NIC's DMA. The NIC makes delivery reliable and
// in order per (source, destination, logical channel): the host only hands a message over and
// learns when its buffer is free again (kCqSent) and when a message has arrived (kCqRecv).
// Call it from a host thread.
#pragma once
#include <array>
#include <cstdint>
#include <deque>

#include "firmware/grim/grim_proto.h"
#include "platform/host/host_interface_driver.hpp"

namespace sanvp::grim_host {

// What the host tells the firmware before go (0 = the firmware's default, grim_proto.h).
struct GrimConfig {
  std::uint32_t mtu = grim::kDefaultMtu;
  std::uint32_t rto_us = grim::kDefaultRtoUs;
  std::uint32_t backoff_us = grim::kDefaultBackoffUs;
  std::uint32_t pool = grim::kDefaultPool;
  std::uint32_t window = grim::kDefaultWindow;
  std::uint32_t send_buffers = grim::kDefaultSendBuffers;
};
// Refuses settings the firmware cannot honour (UserError naming the field).
void check_config(const GrimConfig& c);

using Stats = std::array<std::uint32_t, grim::kStatWords>;

class GrimDriver : public host::HostInterfaceDriver {
 public:
  struct Completion {
    std::uint32_t kind = 0;     // grim::kCqSent, kCqRecv, kCqRecvTruncated, kCqSendError
    std::uint32_t peer = 0;     // destination (sent) or source (received) node
    std::uint32_t channel = 0;
    std::uint32_t length = 0, tag = 0;
    std::uint32_t slot = 0;     // receive kinds: which posted buffer (posts before it)
  };

  GrimDriver(host::Host& host, const GrimConfig& cfg, std::uint32_t cq_entries = 256);
  // Waits for the firmware to publish its host interface, then configures it.
  void open();
  // Receive buffers are taken in post order by messages (in the order their first fragments
  // are delivered); the completion names the slot. Blocks while the receive queue is full.
  void post_recv(std::uint64_t addr, std::uint32_t capacity);
  // Hands a message to the NIC; blocks while the send queue is full.
  void send(std::uint32_t dst, std::uint32_t channel, std::uint64_t addr, std::uint32_t length, std::uint32_t tag);
  // The next completion (blocks): one kept by a blocked post first, then the queue's.
  Completion wait_completion();
  // Blocks until a completion of `kind` arrives (a truncated receive is a receive); the others
  // are kept, in order, for later calls.
  Completion wait_for(std::uint32_t kind);
  // The next completion if there is one, without blocking.
  bool poll_completion(Completion& c);
  std::uint32_t sends_outstanding() const { return sq_.produced - sends_done_; }
  std::uint32_t recvs_posted() const { return rq_.produced - recvs_done_; }
  std::uint32_t hif_address() const { return hif(0); }
  // The firmware's counters, read by PIO.
  Stats stats();

 private:
  Completion next_from_queue();

  GrimConfig cfg_;
  std::uint32_t cq_entries_;
  std::uint64_t cq_ = 0;
  PioRing sq_{grim::kHifSq, grim::kSqEntries, grim::kSqEntryBytes, grim::kHifSqProd};
  PioRing rq_{grim::kHifRq, grim::kRqEntries, grim::kRqEntryBytes, grim::kHifRqProd};
  std::uint32_t sends_done_ = 0, recvs_done_ = 0, cq_next_ = 1;
  std::deque<Completion> pending_;
};

}  // namespace sanvp::grim_host
