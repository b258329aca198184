// GrimEndpoint: what every GRIM endpoint offers its program, whether it is the host CPU
// (GrimDriver: rings by host PIO, completions in host memory) or a PCI peripheral device
// (GrimDeviceEndpoint: rings by the device's own PCI writes, completions in the device's
// memory). Buffers are named by the bus address the NIC's DMA uses, in the endpoint's own
// memory (host memory or device memory). Each endpoint owns a disjoint set of logical channels
// and its own rings, each with one producer: endpoints never take a lock (grim_proto.h).
#pragma once
#include <cstdint>

namespace sanvp::grim_host {

struct GrimCompletion {
  std::uint32_t kind = 0;     // grim::kCqSent, kCqRecv, kCqRecvTruncated, kCqSendError
  std::uint32_t peer = 0;     // destination (sent) or source (received) node
  std::uint32_t channel = 0;
  std::uint32_t length = 0, tag = 0;
  std::uint32_t slot = 0;     // receive kinds: which posted buffer (posts before it)
  std::uint32_t peer_endpoint = 0;  // receive kinds: the sending endpoint on `peer`
  std::uint32_t handler = 0;        // receive kinds: the active-message handler id (0: a plain message)
};

class GrimEndpoint {
 public:
  virtual ~GrimEndpoint() = default;
  // Attaches to the firmware and opens the endpoint (blocks until the NIC takes it).
  virtual void open() = 0;
  // Receive buffers are taken in post order by messages for this endpoint; blocks while the
  // receive queue is full.
  virtual void post_recv(std::uint64_t addr, std::uint32_t capacity) = 0;
  // Hands a message for endpoint `dst_endpoint` of node `dst` to the NIC on `channel` (one this
  // endpoint owns, else a kCqSendError completion), with an active-message handler id (0: none);
  // blocks while the send queue is full.
  virtual void send_to(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, std::uint64_t addr, std::uint32_t length,
                       std::uint32_t tag, std::uint32_t handler) = 0;
  // The next completion (blocks) / the next one if there is one.
  virtual GrimCompletion wait_completion() = 0;
  virtual bool poll_completion(GrimCompletion& c) = 0;
  virtual std::uint32_t sends_outstanding() const = 0;
  // Memory for buffers (bus addresses the NIC can reach), and access to it at no bus cost.
  virtual std::uint64_t alloc(std::uint64_t bytes) = 0;
  virtual void write_memory(std::uint64_t addr, const std::uint8_t* src, std::uint32_t n) = 0;
  virtual void read_memory(std::uint64_t addr, std::uint8_t* dst, std::uint32_t n) = 0;
  virtual std::uint32_t endpoint() const = 0;  // 0: the host CPU; 1..: a device
};

}  // namespace sanvp::grim_host
