// HostInterfaceDriver: what every host-side NIC driver does, whatever its protocol. The firmware
// publishes a host-interface block in NIC SRAM through the mailbox register; the host writes it
// by PIO, posts descriptors into rings in that block and rings the doorbell; the NIC writes
// back by DMA into host memory (completion queues), which the host notices by polling or by
// interrupt. A protocol driver (MsgDriver for firmware/msg) derives from it and adds its block
// layout and its descriptors. Call it from a host thread.
#pragma once
#include <cstdint>
#include <vector>

#include "platform/host/host.hpp"

namespace sanvp::host {

class HostInterfaceDriver {
 public:
  // A ring of fixed-size descriptors in the host-interface block whose producer index the
  // firmware reads (offsets from the start of the block).
  struct PioRing {
    std::uint32_t base = 0;         // entry 0
    std::uint32_t entries = 0;
    std::uint32_t entry_bytes = 0;
    std::uint32_t producer = 0;     // the producer-index word
    std::uint32_t produced = 0;     // descriptors posted so far
  };

  explicit HostInterfaceDriver(Host& host) : host_(host) {}
  virtual ~HostInterfaceDriver() = default;
  Host& host() { return host_; }

 protected:
  // Waits for the firmware to publish its host-interface block (polls the mailbox every 1 us,
  // gives up after 100 ms) and checks that the block starts with `magic` (else SimError naming
  // `firmware`, e.g. "messaging firmware").
  void attach(std::uint32_t magic, const char* firmware);
  // SRAM address of a word of the host-interface block.
  std::uint32_t hif(std::uint32_t off) const { return hif_ + off; }
  void hif_write(std::uint32_t off, const std::vector<std::uint32_t>& words) { host_.pio_write(hif(off), words); }
  void ring_doorbell(std::uint32_t value);
  // Posts one descriptor: the entry, then the producer index (two PCI transactions, write-
  // combined), then the doorbell with the new index. The caller checked there is room.
  void post(PioRing& ring, const std::vector<std::uint32_t>& descriptor);
  // Host memory the NIC (or a peripheral device) writes by DMA, watched so that a polling host
  // sees the writes (any number of areas per host, each with its own event).
  std::uint64_t alloc_dma_area(std::uint64_t bytes);
  // Blocks until the NIC has written `value` into the big-endian word at `addr`: asleep until
  // its interrupt with host.notify=irq, else polling every host.poll (the write is noticed at
  // the first poll at or after it; only writes into addr's watched area wake the thread).
  void wait_for_word(std::uint64_t addr, std::uint32_t value);
  // Reads the firmware's interface version at `off`; SimError naming `firmware` unless it is
  // `expected` (a host and a firmware built from different contracts).
  void check_version(std::uint32_t off, std::uint32_t expected, const char* firmware);
  // A completion block of `words` words the firmware DMAs into host memory (alloc_dma_area),
  // below 4 GiB because the firmware's descriptors carry 32-bit bus addresses.
  std::uint64_t alloc_completion(std::uint32_t words);
  // Writes 1 into the block's go word and rings the doorbell: the firmware starts.
  void start_firmware(std::uint32_t go_off);
  // The software cost of one driver call (host.call).
  void call_cost();

  Host& host_;

 private:
  std::uint32_t hif_ = 0;
};

}  // namespace sanvp::host
