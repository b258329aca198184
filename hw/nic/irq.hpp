// How NIC engines report events: they set bits in the interrupt status register (NicRegs)
// at the current simulated time.
#pragma once
#include <cstdint>
#include <functional>

namespace sanvp::nic {

using RaiseIrq = std::function<void(std::uint32_t bits)>;

// Big-endian 32-bit access to SRAM bytes (engines read and write descriptors directly: the
// SRAM is on the NIC's own bus and engine accesses are not a modelled bottleneck).
inline std::uint32_t get_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
inline void put_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}

}  // namespace sanvp::nic
