// A flit is one byte on a Myrinet-class link. Packets are worms of flits:
//   [route byte per switch hop][type hi][type lo][payload ...][CRC-8]
// Each switch consumes the leading route byte; the CRC-8 covers type and payload (the route
// bytes change on every hop). The last flit carries the end-of-packet mark (Myrinet's GAP).
#pragma once
#include <cstdint>

#include "hw/base/time.hpp"

namespace sanvp {

inline constexpr std::uint32_t kNoPacket = 0xffffffffu;  // flits of switch-generated packets

// Packets sent by NIC send DMAs are numbered apart from the run's packet table (test traffic,
// ids from 0): bit 31 set, the node in bits 16..30, a per-NIC sequence in bits 0..15 that
// wraps (the end-of-run accounting counts wraps). Node 32767 is refused: its last id would be
// kNoPacket.
inline constexpr std::uint32_t kNicPacketBit = 0x80000000u;
inline constexpr std::uint32_t kMaxNicNode = 0x7FFEu;
inline constexpr std::uint32_t kNicSeqMask = 0xFFFFu;
constexpr std::uint32_t nic_packet_id(std::uint32_t node, std::uint64_t seq) {
  return kNicPacketBit | (node & 0x7FFFu) << 16 | (static_cast<std::uint32_t>(seq) & kNicSeqMask);
}
constexpr bool is_nic_packet(std::uint32_t id) { return id != kNoPacket && (id & kNicPacketBit) != 0; }
constexpr std::uint32_t nic_packet_node(std::uint32_t id) { return (id >> 16) & 0x7FFFu; }

// What link fault injection did to a flit (hw/link/link_faults.hpp): simulation-only knowledge
// carried beside the byte, as the packet id is, so a receiver's probe can tell a damaged packet
// its CRC passed ("undetected corruption") from an intact one. Never visible to firmware.
inline constexpr std::uint8_t kFlitFlipped = 0x80;    // a bit of this byte was flipped
inline constexpr std::uint8_t kFlitFlipMany = 0x20;   // more than one flip on this byte
inline constexpr std::uint8_t kFlitLost = 0x40;       // a flit of this worm before this one was lost (drop, truncation, cut)
inline constexpr std::uint8_t kFlitFlipBitMask = 0x07;  // the (last) flipped bit

struct Flit {
  std::uint32_t packet = 0;  // index into the run's packet table, or a NIC packet id (for tracing and scoreboards)
  std::uint8_t data = 0;
  bool head = false;  // first flit of the worm on this link
  bool tail = false;  // end of packet
  std::uint8_t fault = 0;  // kFlit* marks of link faults (0: as sent)
};

// Flit kind as shown in waves: 0 idle, 1 head, 2 body, 3 tail (a 1-flit worm shows as tail).
inline std::uint8_t flit_kind(const Flit& f) { return f.tail ? 3 : f.head ? 1 : 2; }

// CRC-8, polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, as used on Myrinet links.
// The bit-serial definition; crc8_update is the same function through a 256-entry table (the
// test endpoints compute it for every flit sent and received, so it is on the hot path).
constexpr std::uint8_t crc8_update_bitwise(std::uint8_t crc, std::uint8_t byte) {
  crc ^= byte;
  for (int i = 0; i < 8; ++i) crc = static_cast<std::uint8_t>((crc & 0x80) ? (crc << 1) ^ 0x07 : (crc << 1));
  return crc;
}

struct Crc8Table {
  std::uint8_t v[256] = {};
  constexpr Crc8Table() {
    for (int i = 0; i < 256; ++i) v[i] = crc8_update_bitwise(0, static_cast<std::uint8_t>(i));
  }
};
inline constexpr Crc8Table kCrc8Table{};

inline std::uint8_t crc8_update(std::uint8_t crc, std::uint8_t byte) {
  return kCrc8Table.v[static_cast<std::uint8_t>(crc ^ byte)];
}

// Receives flits travelling downstream. Called when the flit leaves the sender; `arrival` is when
// it is completely in the receiver (departure + link delay).
class FlitReceiver {
 public:
  virtual ~FlitReceiver() = default;
  virtual void receive(const Flit& f, Time arrival) = 0;
};

// Receives STOP/GO control symbols travelling upstream; `effective` is when the sender obeys it.
class ControlReceiver {
 public:
  virtual ~ControlReceiver() = default;
  virtual void control(bool stop, Time effective) = 0;
};

}  // namespace sanvp
