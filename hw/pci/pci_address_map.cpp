#include "hw/pci/pci_address_map.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

namespace {
std::string range_text(const PciWindow& w) { return fmt::format("'{}' [0x{:x}, 0x{:x})", w.name, w.base, w.end()); }
}  // namespace

void PciAddressMap::claim(std::string name, std::uint64_t base, std::uint64_t size, PciTarget* target) {
  PciWindow w{std::move(name), base, size, target};
  if (size == 0 || base + size < base)
    throw UserError(fmt::format("PCI window '{}' at 0x{:x} of {} bytes is empty or wraps the address space", w.name, base, size));
  for (const PciWindow& o : windows_)
    if (w.base < o.end() && o.base < w.end())
      throw UserError(fmt::format("PCI window {} overlaps {}: move one of them (pci.nic_base, pci.device_base, pcidev.base, host.memory)",
                                  range_text(w), range_text(o)));
  const auto at = std::upper_bound(windows_.begin(), windows_.end(), base, [](std::uint64_t a, const PciWindow& x) { return a < x.base; });
  windows_.insert(at, std::move(w));
}

const PciWindow* PciAddressMap::decode(std::uint64_t addr, std::uint32_t len) const {
  const std::uint64_t n = std::max<std::uint32_t>(len, 1);
  if (addr + n < addr) return nullptr;
  // The last window starting at or below addr is the only candidate (windows do not overlap).
  auto it = std::upper_bound(windows_.begin(), windows_.end(), addr, [](std::uint64_t a, const PciWindow& x) { return a < x.base; });
  if (it == windows_.begin()) return nullptr;
  --it;
  return addr + n <= it->end() ? &*it : nullptr;
}

const PciWindow* PciAddressMap::find(const PciTarget* target) const {
  for (const PciWindow& w : windows_)
    if (w.target == target) return &w;
  return nullptr;
}

PciStatus PciAddressMap::read(std::uint64_t addr, std::uint8_t* dst, std::uint32_t len) {
  const PciWindow* w = decode(addr, len);
  if (!w) { ++master_aborts_; return PciStatus::kMasterAbort; }
  if (!w->target->read(addr - w->base, dst, len)) { ++target_aborts_; return PciStatus::kTargetAbort; }
  return PciStatus::kOk;
}

PciStatus PciAddressMap::write(std::uint64_t addr, const std::uint8_t* src, std::uint32_t len) {
  const PciWindow* w = decode(addr, len);
  if (!w) { ++master_aborts_; return PciStatus::kMasterAbort; }
  if (!w->target->write(addr - w->base, src, len)) { ++target_aborts_; return PciStatus::kTargetAbort; }
  return PciStatus::kOk;
}

std::string PciAddressMap::describe(PciStatus s, std::uint64_t addr, std::uint32_t len, bool write) const {
  const char* what = write ? "write" : "read";
  if (s == PciStatus::kOk) return fmt::format("{} of {} bytes at 0x{:x}: ok", what, len, addr);
  if (s == PciStatus::kTargetAbort) {
    const PciWindow* w = decode(addr, len);
    return fmt::format("target abort: {} refuses a {} of {} bytes at offset 0x{:x} (bus address 0x{:x})", w ? range_text(*w) : "?", what,
                       len, w ? addr - w->base : 0, addr);
  }
  // Name the window the access starts in, if any: the burst then runs past its end.
  const PciWindow* start = decode(addr, 1);
  if (start)
    return fmt::format("master abort: a {} of {} bytes at bus address 0x{:x} runs past the end of {}", what, len, addr, range_text(*start));
  return fmt::format("master abort: no PCI window claims bus address 0x{:x} ({} of {} bytes)", addr, what, len);
}

}  // namespace sanvp
