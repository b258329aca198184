// Packet records shared by the test endpoints: the scoreboard of a run. Payload bytes are not
// stored: they are a pure function of (source, sequence number, index), so a receiver can check
// every byte and a 2 ms saturation run stays small in memory.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/base/rng.hpp"
#include "hw/base/time.hpp"

namespace sanvp {

inline constexpr std::uint16_t kTestPacketType = 0x0400;  // type field of test-endpoint packets
inline constexpr int kPayloadHeader = 8;                  // src(2) dst(2) seq(4), big-endian

struct PacketRecord {
  std::uint16_t src = 0, dst = 0;
  std::uint32_t seq = 0;          // per-source sequence number
  std::uint32_t payload = 0;      // payload bytes (>= kPayloadHeader)
  std::uint8_t route_len = 0;     // route bytes (= switch hops)
  Time created = kNever;          // entered the source queue
  Time injected = kNever;         // first flit left the source
  Time head_arrival = kNever;     // first flit completely at the destination
  Time tail_arrival = kNever;     // last flit completely at the destination
  std::uint8_t deliveries = 0;    // times delivered intact (must end at exactly 1)
  bool corrupt = false;           // CRC or content mismatch seen
  bool faulted = false;           // a link fault touched it (hw/link/link_faults.hpp): a bad copy is expected
  bool dropped = false;           // ended inside the network: consumed by a switch or lost on a cut link
  std::uint32_t wire_len() const { return route_len + 2u + payload + 1u; }
  bool ended() const { return tail_arrival != kNever || dropped; }  // delivered or dropped
};

// Byte `i` of the payload of packet (src, seq, dst).
inline std::uint8_t payload_byte(const PacketRecord& r, std::uint32_t i) {
  switch (i) {
    case 0: return static_cast<std::uint8_t>(r.src >> 8);
    case 1: return static_cast<std::uint8_t>(r.src);
    case 2: return static_cast<std::uint8_t>(r.dst >> 8);
    case 3: return static_cast<std::uint8_t>(r.dst);
    case 4: return static_cast<std::uint8_t>(r.seq >> 24);
    case 5: return static_cast<std::uint8_t>(r.seq >> 16);
    case 6: return static_cast<std::uint8_t>(r.seq >> 8);
    case 7: return static_cast<std::uint8_t>(r.seq);
    default: {
      // One hash per 8 bytes: the content is still unpredictable per packet and position.
      std::uint64_t x = (std::uint64_t{r.src} << 48) ^ (std::uint64_t{r.seq} << 16) ^ (i >> 3);
      return static_cast<std::uint8_t>(splitmix64(x) >> (8 * (i & 7)));
    }
  }
}

class PacketTable {
 public:
  std::uint32_t add(const PacketRecord& r) {
    records_.push_back(r);
    return static_cast<std::uint32_t>(records_.size() - 1);
  }
  PacketRecord& operator[](std::uint32_t id) { return records_[id]; }
  const PacketRecord& operator[](std::uint32_t id) const { return records_[id]; }
  std::size_t size() const { return records_.size(); }
  // The last flit of `id` reached its destination at `at` (again, for a duplicate).
  void set_tail_arrival(std::uint32_t id, Time at) {
    if (!records_[id].ended()) ++ended_;
    records_[id].tail_arrival = at;
  }
  // `id` ended inside the network (consumed by a switch, lost on a cut link).
  void set_dropped(std::uint32_t id) {
    if (!records_[id].ended()) ++ended_;
    records_[id].dropped = true;
  }
  // Packets neither delivered nor dropped. A counter, not a scan: the run loop asks every step,
  // and a scan of the whole run's table made a run's cost grow with the square of its length.
  std::uint64_t open() const { return records_.size() - ended_; }
  const std::vector<PacketRecord>& all() const { return records_; }

 private:
  std::vector<PacketRecord> records_;
  std::uint64_t ended_ = 0;
};

}  // namespace sanvp
