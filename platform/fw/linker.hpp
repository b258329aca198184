// The firmware linker: reads Lanai ELF32 relocatable objects (typically one `ld.lld -r`
// merge of the firmware plus the runtime), lays their sections out per the NIC memory map,
// resolves local, section and global symbols, applies every R_LANAI_* relocation, orders
// .init_array by priority and produces an Image plus a map file. Every error is a
// sanvp::UserError with one specific line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/nic/memory_map.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::fw {

struct LinkOptions {
  std::uint32_t text_base = nic::map::kImageBase;
  std::uint32_t sram_size = nic::map::kSramDefaultSize;
  std::uint32_t stack_size = 16 * 1024;
  std::string entry = "_start";
};

struct LinkResult {
  Image image;
  std::string map;  // text of the map file
};

LinkResult link(const std::vector<std::string>& inputs, const LinkOptions& opt);

}  // namespace sanvp::fw
