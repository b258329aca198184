#include "hw/pci/pci_dma.hpp"

#include <algorithm>
#include <cstring>
#include <vector>
#include <systemc>

#include "hw/base/sim_time.hpp"

namespace sanvp {

namespace {

// Moves [addr, addr + len) in bursts of the bus's burst size: each burst first waits for its bus
// tenure (a master abort has no data phases: only the address phase and the time-out), then
// `move(done, a, n)` transfers it. The first failing burst ends the transfer.
template <typename Move>
PciDmaResult in_bursts(PciBus& bus, std::uint64_t addr, std::uint32_t len, Move move) {
  const std::uint32_t burst = static_cast<std::uint32_t>(bus.config().burst);
  for (std::uint32_t done = 0; done < len;) {
    const std::uint32_t n = std::min(burst, len - done);
    const std::uint64_t a = addr + done;
    const bool claimed = bus.map().decode(a, n) != nullptr;
    const Time end = bus.reserve(now_ps(), claimed ? n : 0);
    sc_core::wait(sc_core::sc_time::from_value(end - now_ps()));
    const PciStatus s = move(done, a, n);
    if (s != PciStatus::kOk) return PciDmaResult{s, a, n};
    done += n;
  }
  return {};
}

}  // namespace

PciDmaResult pci_dma(PciBus& bus, std::uint64_t addr, std::uint8_t* local, std::uint32_t len, bool to_bus) {
  return in_bursts(bus, addr, len, [&](std::uint32_t done, std::uint64_t a, std::uint32_t n) {
    return to_bus ? bus.map().write(a, local + done, n) : bus.map().read(a, local + done, n);
  });
}

PciDmaResult pci_dma_read(PciBus& bus, std::uint64_t addr, const std::uint8_t* local, std::uint32_t len, const PciDmaLand& land) {
  std::vector<std::uint8_t> tmp(std::min(static_cast<std::uint32_t>(bus.config().burst), len));
  return in_bursts(bus, addr, len, [&](std::uint32_t done, std::uint64_t a, std::uint32_t n) {
    // As pci_dma: bytes a failing target did not write keep their value at this instant.
    std::memcpy(tmp.data(), local + done, n);
    const PciStatus s = bus.map().read(a, tmp.data(), n);
    land(done, tmp.data(), n);
    return s;
  });
}

}  // namespace sanvp
