// NIC SRAM as a PCI memory target (host PIO, other bus masters): writes go through the SRAM so
// its listeners hear of them (writer PCI).
#pragma once
#include <cstdint>
#include <cstring>

#include "hw/nic/sram.hpp"
#include "hw/pci/pci_address_map.hpp"

namespace sanvp::nic {

class SramPciTarget : public PciTarget {
 public:
  explicit SramPciTarget(Sram& sram) : sram_(sram) {}
  bool read(std::uint64_t off, std::uint8_t* dst, std::uint32_t len) override {
    std::memcpy(dst, sram_.data() + off, len);
    return true;
  }
  bool write(std::uint64_t off, const std::uint8_t* src, std::uint32_t len) override {
    sram_.write(static_cast<std::uint32_t>(off), src, len, SramWriter::kPci);
    return true;
  }

 private:
  Sram& sram_;
};

}  // namespace sanvp::nic
