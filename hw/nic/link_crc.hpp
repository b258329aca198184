// LinkCrc: the check a NIC's send DMA appends to every packet and its receive DMA verifies
// (parameter nic.link_crc). crc8 is the Myrinet link CRC (hw/link/flit.hpp: polynomial 0x07,
// one trailer byte), the fabric's default. Its generator has period 127, so two bit flips
// 127·k bits apart cancel, and a random damaged packet passes with probability 1/256. crc32 is
// the 32-bit CRC later LANai DMA engines computed: IEEE 802.3 (reflected polynomial 0xEDB88320,
// initial value and final XOR 0xFFFFFFFF), four trailer bytes, least significant first as
// Ethernet sends its FCS. Both cover everything after the route bytes.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "hw/link/flit.hpp"

namespace sanvp::nic {

enum class LinkCrc : std::uint8_t { kCrc8, kCrc32 };

// "crc8" / "crc32" (the parameter's choices: anything else is rejected before this).
inline LinkCrc parse_link_crc(const std::string& s) { return s == "crc32" ? LinkCrc::kCrc32 : LinkCrc::kCrc8; }
inline const char* link_crc_name(LinkCrc c) { return c == LinkCrc::kCrc32 ? "crc32" : "crc8"; }
// Trailer bytes on the wire after the packet.
constexpr std::uint32_t crc_bytes(LinkCrc c) { return c == LinkCrc::kCrc32 ? 4u : 1u; }

struct Crc32Table {
  std::array<std::uint32_t, 256> v{};
  constexpr Crc32Table() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
      v[i] = c;
    }
  }
};
inline constexpr Crc32Table kCrc32Table{};

// The running check: start(), add() each covered byte, then trailer(i) is the i-th trailer byte.
struct LinkCrcState {
  LinkCrc kind = LinkCrc::kCrc8;
  std::uint32_t value = 0;
  void start() { value = kind == LinkCrc::kCrc32 ? 0xFFFFFFFFu : 0u; }
  void add(std::uint8_t b) {
    if (kind == LinkCrc::kCrc32) value = kCrc32Table.v[(value ^ b) & 0xFFu] ^ (value >> 8);
    else value = crc8_update(static_cast<std::uint8_t>(value), b);
  }
  std::uint8_t trailer(std::uint32_t i) const {
    if (kind == LinkCrc::kCrc8) return static_cast<std::uint8_t>(value);
    return static_cast<std::uint8_t>((value ^ 0xFFFFFFFFu) >> (8 * i));
  }
};

// The CRC-32 of a byte string (tests, probes).
inline std::uint32_t crc32_of(const std::uint8_t* p, std::size_t n) {
  LinkCrcState s{LinkCrc::kCrc32};
  s.start();
  for (std::size_t i = 0; i < n; ++i) s.add(p[i]);
  return s.value ^ 0xFFFFFFFFu;
}

}  // namespace sanvp::nic
