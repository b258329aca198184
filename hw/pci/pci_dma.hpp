// pci_dma: what every bus master's DMA does (the NIC's host DMA, a peripheral device's engine):
// the transfer is split into bursts of pci.burst bytes; each burst is decoded at its address
// phase, holds the shared bus for its transaction time (after every transaction reserved before
// it: masters interleave per burst) and moves its bytes at its end. A burst that no window
// claims costs the address phase only (`latency` cycles, the DEVSEL time-out) and ends the DMA
// as a master abort; a target that refuses the burst ends it as a target abort after the burst.
// Call from a SystemC thread.
#pragma once
#include <cstdint>
#include <functional>

#include "hw/pci/pci_bus.hpp"

namespace sanvp {

struct PciDmaResult {
  PciStatus status = PciStatus::kOk;
  std::uint64_t addr = 0;  // the failed burst: bus address and length
  std::uint32_t len = 0;
  bool ok() const { return status == PciStatus::kOk; }
};

// to_bus: `len` bytes from `local` to bus address `addr` (write); else from `addr` into `local`.
PciDmaResult pci_dma(PciBus& bus, std::uint64_t addr, std::uint8_t* local, std::uint32_t len, bool to_bus);

// A read from the bus into a memory that must hear of its writes (NIC SRAM): each burst's bytes
// are handed to `land(offset, bytes, n)` at the burst's end instead of being stored directly;
// `local` (read-only) gives the bytes a refused burst leaves unchanged.
using PciDmaLand = std::function<void(std::uint32_t off, const std::uint8_t* bytes, std::uint32_t n)>;
PciDmaResult pci_dma_read(PciBus& bus, std::uint64_t addr, const std::uint8_t* local, std::uint32_t len, const PciDmaLand& land);

}  // namespace sanvp
