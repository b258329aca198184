#include "hw/pci/pci_dma.hpp"

#include <algorithm>
#include <cstring>
#include <vector>
#include <systemc>

#include "hw/base/sim_time.hpp"

namespace sanvp {

PciDmaResult pci_dma(PciBus& bus, std::uint64_t addr, std::uint8_t* local, std::uint32_t len, bool to_bus) {
  const std::uint32_t burst = static_cast<std::uint32_t>(bus.config().burst);
  for (std::uint32_t done = 0; done < len;) {
    const std::uint32_t n = std::min(burst, len - done);
    const std::uint64_t a = addr + done;
    const bool claimed = bus.map().decode(a, n) != nullptr;
    // A master abort has no data phases: only the address phase and the time-out.
    const Time end = bus.reserve(now_ps(), claimed ? n : 0);
    sc_core::wait(sc_core::sc_time::from_value(end - now_ps()));
    const PciStatus s = to_bus ? bus.map().write(a, local + done, n) : bus.map().read(a, local + done, n);
    if (s != PciStatus::kOk) return PciDmaResult{s, a, n};
    done += n;
  }
  return {};
}

PciDmaResult pci_dma_read(PciBus& bus, std::uint64_t addr, const std::uint8_t* local, std::uint32_t len, const PciDmaLand& land) {
  const std::uint32_t burst = static_cast<std::uint32_t>(bus.config().burst);
  std::vector<std::uint8_t> tmp(std::min(burst, len));
  for (std::uint32_t done = 0; done < len;) {
    const std::uint32_t n = std::min(burst, len - done);
    const std::uint64_t a = addr + done;
    const bool claimed = bus.map().decode(a, n) != nullptr;
    const Time end = bus.reserve(now_ps(), claimed ? n : 0);
    sc_core::wait(sc_core::sc_time::from_value(end - now_ps()));
    // As pci_dma: bytes a failing target did not write keep their value at this instant.
    std::memcpy(tmp.data(), local + done, n);
    const PciStatus s = bus.map().read(a, tmp.data(), n);
    land(done, tmp.data(), n);
    if (s != PciStatus::kOk) return PciDmaResult{s, a, n};
    done += n;
  }
  return {};
}

}  // namespace sanvp
