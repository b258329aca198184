// HostMemory: a host's physical memory as sparse 64 KiB pages (only touched pages exist), the
// PCI target at bus address 0 that the NIC's and the devices' DMA write. Any number of ranges
// can be watched (completion queues, device mailboxes): a write into one notifies that range's
// event and the any-range event, so a polling host costs no simulation events while nothing
// arrives.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "hw/pci/pci_bus.hpp"

namespace sanvp::host {

class HostMemory : public HostMemoryPort {
 public:
  explicit HostMemory(std::uint64_t size) : size_(size) {}
  std::uint64_t size() const override { return size_; }
  bool read(std::uint64_t addr, std::uint8_t* dst, std::uint32_t len) override;
  bool write(std::uint64_t addr, const std::uint8_t* src, std::uint32_t len) override;
  std::uint32_t read_be32(std::uint64_t addr);
  // Watches [lo, hi) from now on (ranges may overlap); returns the range's index.
  std::size_t watch(std::uint64_t lo, std::uint64_t hi);
  std::size_t watched_ranges() const { return ranges_.size(); }
  // The watched range holding addr (the first one watched), or watched_ranges() if none.
  std::size_t watched_range_of(std::uint64_t addr) const;
  // Notified (delta) whenever a write touches any watched range / range i.
  const sc_core::sc_event& watched_write() const { return watched_; }
  const sc_core::sc_event& watched_write(std::size_t i) const { return ranges_.at(i)->ev; }

 private:
  static constexpr std::uint64_t kPage = 1u << 16;
  std::uint8_t* page(std::uint64_t n);
  std::uint64_t size_;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::uint8_t[]>> pages_;
  struct Range { std::uint64_t lo, hi; sc_core::sc_event ev; };
  std::vector<std::unique_ptr<Range>> ranges_;  // events do not move
  sc_core::sc_event watched_;
};

}  // namespace sanvp::host
