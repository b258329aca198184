#include "platform/nic/firmware_loader.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "platform/fw/fw_platform.hpp"

namespace sanvp::nic {

void load_image(Nic& nic, const fw::Image& image) {
  if (image.sram_size > nic.sram().size())
    throw UserError(fmt::format("{}: image was linked for 0x{:x} bytes of SRAM but the NIC has 0x{:x} (nic.sram_bytes)", nic.name(),
                                image.sram_size, nic.sram().size()));
  if (const fw::Segment* s = fw::load_segments(nic.sram(), image))
    throw UserError(fmt::format("{}: image segment 0x{:x}+0x{:x} does not fit the SRAM", nic.name(), s->addr, s->size));
}

}  // namespace sanvp::nic
