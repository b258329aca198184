// HostMemory: a host's physical memory as sparse 64 KiB pages (only touched pages exist), the
// target of the NIC's host DMA. Writes can be watched (the driver's completion queue), so a
// polling host costs no simulation events while nothing arrives.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <unordered_map>

#include "hw/pci/pci_bus.hpp"

namespace sanvp::host {

class HostMemory : public HostMemoryPort {
 public:
  explicit HostMemory(std::uint64_t size) : size_(size) {}
  std::uint64_t size() const { return size_; }
  bool read(std::uint64_t addr, std::uint8_t* dst, std::uint32_t len) override;
  bool write(std::uint64_t addr, const std::uint8_t* src, std::uint32_t len) override;
  std::uint32_t read_be32(std::uint64_t addr);
  // Notified (delta) whenever a write touches [lo, hi).
  void watch(std::uint64_t lo, std::uint64_t hi) { watch_lo_ = lo; watch_hi_ = hi; }
  const sc_core::sc_event& watched_write() const { return watched_; }

 private:
  static constexpr std::uint64_t kPage = 1u << 16;
  std::uint8_t* page(std::uint64_t n);
  std::uint64_t size_;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::uint8_t[]>> pages_;
  std::uint64_t watch_lo_ = 0, watch_hi_ = 0;
  sc_core::sc_event watched_;
};

}  // namespace sanvp::host
