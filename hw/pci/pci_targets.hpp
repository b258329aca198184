// The two kinds of PCI target every model here needs: memory (NIC SRAM, a device's local
// memory: any bytes) and a register page (whole aligned 32-bit big-endian words, each decoded
// by its owner; anything else is a target abort).
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>

#include "hw/base/endian.hpp"
#include "hw/pci/pci_address_map.hpp"

namespace sanvp {

// Bytes at `data`; the window claimed for it must not be larger than the memory (the map
// checks every access against the window).
class PciRamTarget : public PciTarget {
 public:
  explicit PciRamTarget(std::uint8_t* data) : data_(data) {}
  bool read(std::uint64_t off, std::uint8_t* dst, std::uint32_t len) override {
    std::memcpy(dst, data_ + off, len);
    return true;
  }
  bool write(std::uint64_t off, const std::uint8_t* src, std::uint32_t len) override {
    std::memcpy(data_ + off, src, len);
    return true;
  }

 private:
  std::uint8_t* data_;
};

class PciRegisterTarget : public PciTarget {
 public:
  // false: no such register, or not accessible from the bus (a target abort).
  using Read = std::function<bool(std::uint32_t off, std::uint32_t& value)>;
  using Write = std::function<bool(std::uint32_t off, std::uint32_t value)>;
  PciRegisterTarget(Read r, Write w) : read_(std::move(r)), write_(std::move(w)) {}
  bool read(std::uint64_t off, std::uint8_t* dst, std::uint32_t len) override {
    if (off % 4 || len % 4 || len == 0) return false;
    for (std::uint32_t i = 0; i < len; i += 4) {
      std::uint32_t v = 0;
      if (!read_(static_cast<std::uint32_t>(off + i), v)) return false;
      put_be32(dst + i, v);
    }
    return true;
  }
  bool write(std::uint64_t off, const std::uint8_t* src, std::uint32_t len) override {
    if (off % 4 || len % 4 || len == 0) return false;
    for (std::uint32_t i = 0; i < len; i += 4)
      if (!write_(static_cast<std::uint32_t>(off + i), get_be32(src + i))) return false;
    return true;
  }

 private:
  Read read_;
  Write write_;
};

}  // namespace sanvp
