// PCI times in closed form from the parameters, independent of hw/pci: a test's expectation.
#pragma once
#include <cmath>
#include <cstdint>

#include "hw/base/time.hpp"
#include "hw/pci/pci_bus.hpp"

namespace sanvp::test {

// One bus cycle: 1 / clock, to the nearest ps.
inline Time pci_cycle(const PciParams& p) { return static_cast<Time>(std::llround(1e6 / p.clock_mhz)); }
// One transaction of n bytes: latency cycles, then one data cycle per width bytes.
inline Time pci_transaction(const PciParams& p, std::uint64_t n) {
  return (static_cast<Time>(p.latency) + (n + static_cast<Time>(p.width) - 1) / static_cast<Time>(p.width)) * pci_cycle(p);
}
// A DMA of len bytes on an idle bus: the engine's set-up, then bursts of at most pci.burst.
inline Time pci_dma_time(const PciParams& p, Time setup, std::uint64_t len) {
  const auto burst = static_cast<std::uint64_t>(p.burst);
  Time t = setup;
  for (std::uint64_t done = 0; done < len; done += burst) t += pci_transaction(p, len - done < burst ? len - done : burst);
  return t;
}

}  // namespace sanvp::test
