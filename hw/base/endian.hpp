// Big-endian access to byte buffers: the Lanai is big-endian, so SRAM words, descriptors,
// firmware images and route tables are all stored most significant byte first.
#pragma once
#include <cstdint>
#include <cstring>

namespace sanvp {

inline std::uint16_t get_be16(const std::uint8_t* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }

inline std::uint32_t get_be32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);  // one load and a byte swap: the ISS fetch path uses this
  return __builtin_bswap32(v);
}

inline void put_be16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}

inline void put_be32(std::uint8_t* p, std::uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}

}  // namespace sanvp
