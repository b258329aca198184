// How NIC engines report events: they set bits in the interrupt status register (NicRegs)
// at the current simulated time.
#pragma once
#include <cstdint>
#include <functional>

#include "hw/base/endian.hpp"

namespace sanvp::nic {

using RaiseIrq = std::function<void(std::uint32_t bits)>;

// Engines read and write SRAM descriptors directly with get_be32 / put_be32 (hw/base/endian.hpp):
// the SRAM is on the NIC's own bus and engine accesses are not a modelled bottleneck.
using sanvp::get_be32;
using sanvp::put_be32;

}  // namespace sanvp::nic
