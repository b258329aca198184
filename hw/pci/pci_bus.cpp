#include "hw/pci/pci_bus.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

PciConfig PciConfig::from_params(ParamValues& pv, const std::string& path) {
  // The declared clock range keeps the cycle time a finite number of ps (at least 1 Hz).
  PciConfig c;
  c.read_params(pv, path);
  if (c.width != 1 && c.width != 2 && c.width != 4 && c.width != 8 && c.width != 16)
    throw UserError(fmt::format("{}: pci.width = {} must be 1, 2, 4, 8 or 16 bytes", path, c.width));
  if (c.burst < c.width || c.burst > (1 << 20) || c.burst % c.width)
    throw UserError(fmt::format("{}: pci.burst = {} must be a multiple of pci.width ({}) up to 1 MiB", path, c.burst, c.width));
  return c;
}

Time PciConfig::cycle() const { return static_cast<Time>(std::llround(1e6 / clock_mhz)); }

Time PciConfig::transaction(std::uint32_t bytes) const {
  const std::uint64_t data = (bytes + static_cast<std::uint32_t>(width) - 1) / static_cast<std::uint32_t>(width);
  return (static_cast<std::uint64_t>(latency) + data) * cycle();
}

Time PciBus::reserve(Time earliest, std::uint32_t bytes) {
  const Time start = std::max(earliest, free_at_);
  const Time d = cfg_.transaction(bytes);
  free_at_ = start + d;
  busy_ += d;
  ++count_;
  return free_at_;
}

}  // namespace sanvp
