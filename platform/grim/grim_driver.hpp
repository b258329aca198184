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
#include "platform/grim/grim_endpoint.hpp"
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
  std::uint32_t channels = 0;   // logical channels the host endpoint owns, bit c (0: all; devices take the others)
  std::uint32_t endpoints = 1;  // endpoints that may open: the host and endpoints-1 devices (1..grim::kMaxEndpoints)
};
// Refuses settings the firmware cannot honour (UserError naming the field).
void check_config(const GrimConfig& c);

using Stats = std::array<std::uint32_t, grim::kStatWords>;

// Endpoint 0 of its node (GrimEndpoint): the host CPU.
class GrimDriver : public host::HostInterfaceDriver, public GrimEndpoint {
 public:
  using Completion = GrimCompletion;

  GrimDriver(host::Host& host, const GrimConfig& cfg, std::uint32_t cq_entries = 256);
  // Waits for the firmware to publish its host interface, then configures it.
  void open() override;
  // Receive buffers are taken in post order by messages (in the order their first fragments
  // are delivered); the completion names the slot. Blocks while the receive queue is full.
  void post_recv(std::uint64_t addr, std::uint32_t capacity) override;
  // Hands a message for endpoint 0 (the host) of `dst` to the NIC; blocks while the send queue is full.
  void send(std::uint32_t dst, std::uint32_t channel, std::uint64_t addr, std::uint32_t length, std::uint32_t tag) {
    send_to(dst, 0, channel, addr, length, tag, 0);
  }
  void send_to(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, std::uint64_t addr, std::uint32_t length,
               std::uint32_t tag, std::uint32_t handler) override;
  // The next completion (blocks): one kept by a blocked post first, then the queue's.
  Completion wait_completion() override;
  // Blocks until a completion of `kind` arrives (a truncated receive is a receive); the others
  // are kept, in order, for later calls.
  Completion wait_for(std::uint32_t kind);
  // The next completion if there is one, without blocking.
  bool poll_completion(Completion& c) override;
  std::uint32_t sends_outstanding() const override { return sq_.produced - sends_done_; }
  std::uint32_t recvs_posted() const { return rq_.produced - recvs_done_; }
  std::uint32_t hif_address() const { return hif(0); }
  // The firmware's counters, read by PIO.
  Stats stats();
  std::uint64_t alloc(std::uint64_t bytes) override { return host_.alloc(bytes); }
  void write_memory(std::uint64_t addr, const std::uint8_t* src, std::uint32_t n) override { host_.memory().write(addr, src, n); }
  void read_memory(std::uint64_t addr, std::uint8_t* dst, std::uint32_t n) override { host_.memory().read(addr, dst, n); }
  std::uint32_t endpoint() const override { return 0; }
  // Whether the next completion entry is in host memory (a look, at no cost: for checks after a run).
  bool completion_waiting();

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
