// MsgDriver: the host side of the basic messaging layer (firmware/msg). Send queue + doorbell
// and receive queue in NIC SRAM written by PIO, completion queue in host memory written by the
// NIC's DMA and polled by the host (firmware/msg/msg_proto.h has the layout and the
// buffer-ownership rules). The generic parts (mailbox, rings, doorbell, DMA area, waiting for the
// NIC) are HostInterfaceDriver's. Call it from a host thread.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>

#include "firmware/msg/msg_proto.h"
#include "platform/host/host_interface_driver.hpp"

namespace sanvp::host {

class MsgDriver : public HostInterfaceDriver {
 public:
  struct Completion {
    std::uint32_t kind = 0;   // msg::kCqSent, kCqRecv, kCqRecvTruncated
    std::uint32_t peer = 0;   // destination (sent) or source (received) node
    std::uint32_t length = 0, tag = 0;
    Time seen = 0;            // when the host noticed it
  };
  // Observer of driver activity for timelines: (what, node, tag, time).
  using Observer = std::function<void(const char*, std::uint32_t, std::uint32_t, Time)>;

  MsgDriver(Host& host, std::uint32_t mtu = msg::kDefaultMtu, std::uint32_t cq_entries = 128);
  // Waits for the firmware to publish its host interface, then configures it.
  void open();
  void post_recv(std::uint64_t addr, std::uint32_t capacity);
  void send(std::uint32_t dst, std::uint64_t addr, std::uint32_t length, std::uint32_t tag);
  // The next completion in order (blocks).
  Completion wait_completion();
  // Blocks until a completion of `kind` arrives; others are kept for later.
  Completion wait_for(std::uint32_t kind);
  void set_observer(Observer fn) { observer_ = std::move(fn); }

 private:
  Completion next_from_queue();

  std::uint32_t mtu_, cq_entries_;
  std::uint64_t cq_ = 0;
  PioRing sq_{msg::kHifSq, msg::kSqEntries, msg::kSqEntryBytes, msg::kHifSqProd};
  PioRing rq_{msg::kHifRq, msg::kRqEntries, msg::kRqEntryBytes, msg::kHifRqProd};
  std::uint32_t sends_done_ = 0, recvs_done_ = 0, cq_next_ = 1;
  std::deque<Completion> pending_;
  Observer observer_;
};

}  // namespace sanvp::host
