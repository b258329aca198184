// A firmware image around assembled words (tb/iss/iss_harness.hpp: assemble): code at 0x100,
// 64 KiB of SRAM with the stack at the top, one function symbol "prog" over the code.
#pragma once
#include <cstdint>
#include <vector>

#include "platform/fw/image.hpp"

namespace sanvp::test {

inline fw::Image image_of(const std::vector<std::uint32_t>& words) {
  fw::Image im;
  im.entry = im.code_lo = 0x100;
  im.code_hi = 0x100 + static_cast<std::uint32_t>(4 * words.size());
  im.sram_size = 0x10000;
  im.stack_top = 0x10000;
  im.stack_limit = 0xF000;
  fw::Segment s;
  s.addr = 0x100;
  for (auto w : words)
    for (int k = 3; k >= 0; --k) s.data.push_back(static_cast<std::uint8_t>(w >> (8 * k)));
  s.size = static_cast<std::uint32_t>(s.data.size());
  im.segments.push_back(s);
  im.symbols.push_back({0x100, im.code_hi - 0x100, "prog", true, {}});
  return im;
}

}  // namespace sanvp::test
