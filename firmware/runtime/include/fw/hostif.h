// The host interface of protocol firmware (firmware/fbs, firmware/tdma): publish a block in SRAM,
// wait for the host's go, and at the end DMA a completion block into host memory while the
// receiver keeps consuming. The host side is platform/host/host_interface_driver.hpp.
#pragma once
#include <stdint.h>

#include "fw/nic.h"

namespace fw::hostif {

// Publishes `hif` through the mailbox (the host polls it and reads the block by PIO) and sleeps
// until the host writes a nonzero word at `hif[go_word]` and rings the doorbell.
inline void publish_and_wait(volatile uint32_t* hif, uint32_t go_word) {
  nic::irq_mask(nic::kIrqDoorbell);
  nic::publish(reinterpret_cast<uintptr_t>(hif));
  while (!hif[go_word]) nic::irq_ack(nic::wait());
}

// DMAs `bytes` of `block` to host address `host` through entry 0 of the host-DMA ring set up
// with hdma_setup (nothing else may use the ring afterwards).
inline void post_completion(nic::HdmaDesc* ring, const uint32_t* block, uint32_t bytes, uint32_t host) {
  nic::HdmaDesc& d = ring[0];
  d.local = reinterpret_cast<uintptr_t>(block);
  d.host = host;
  d.length = bytes;
  d.control = 0;
  nic::hdma_set_head(1);
}

// Never returns: keeps giving every filled receive descriptor back to the NIC (`done` counts
// those given back so far; `entries` a power of two), so that late packets of other NICs are
// consumed. A receiver must never hold the link.
[[noreturn]] inline void drain_receiver(nic::RxDesc* ring, uint32_t entries, uint32_t done) {
  nic::irq_mask(nic::kIrqRxDone);
  while (true) {
    nic::irq_ack(nic::wait());
    for (const uint32_t tail = nic::rx_tail(); done != tail; ++done) ring[done & (entries - 1)].status = nic::kRxOwn;
    nic::rx_kick();
  }
}

}  // namespace fw::hostif
