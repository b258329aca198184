// Loads a firmware image into a network NIC's SRAM before its core starts (the NIC's core
// takes the program itself: fw::program_of). Protocol-neutral.
#pragma once
#include "hw/nic/nic.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::nic {

// Copies the image's segments into the NIC's SRAM; throws UserError when the image was linked
// for more SRAM than the NIC has or a segment does not fit.
void load_image(Nic& nic, const fw::Image& image);

}  // namespace sanvp::nic
