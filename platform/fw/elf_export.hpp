// An image as an ELF32 executable (EM_LANAI, big-endian) with its DWARF sections and symbols, so
// stock tools read a firmware's debug information: llvm-dwarfdump, llvm-objdump -d -l,
// llvm-symbolizer. Addresses are the image's SRAM addresses.
#pragma once
#include <string>

#include "platform/fw/image.hpp"

namespace sanvp::fw {

std::string image_to_elf(const Image& im);

}  // namespace sanvp::fw
