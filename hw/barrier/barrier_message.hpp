// Barrier synchronization message (BTIN paper, Figure 5): 16 bits,
//   [15:14] type   [13:6] group id (GID)   [5:0] synchronization data.
// The message is fixed-size and carries no destination: the barrier register of its GID in each
// switch decides where it goes (merge towards the parent, replicate towards the children).
#pragma once
#include <cstdint>

namespace sanvp::barrier {

enum class MsgType : std::uint8_t {
  None = 0,        // never valid on the wire; dropped as malformed
  Reduce = 1,      // reduction phase: "I (and my subtree) arrived"
  Distribute = 2,  // distribution phase: "everyone arrived, proceed"
  Reserved = 3,    // dropped as malformed
};

struct BarrierMessage {
  MsgType type = MsgType::None;
  std::uint8_t gid = 0;
  std::uint8_t data = 0;  // 6 bits

  constexpr std::uint16_t encode() const {
    return static_cast<std::uint16_t>((static_cast<unsigned>(type) & 3u) << 14 |
                                      unsigned{gid} << 6 | (data & 0x3fu));
  }
  static constexpr BarrierMessage decode(std::uint16_t raw) {
    return BarrierMessage{static_cast<MsgType>(raw >> 14), static_cast<std::uint8_t>(raw >> 6),
                          static_cast<std::uint8_t>(raw & 0x3f)};
  }
  friend constexpr bool operator==(const BarrierMessage& a, const BarrierMessage& b) {
    return a.type == b.type && a.gid == b.gid && a.data == b.data;
  }
};

inline constexpr int kMaxBarrierPorts = 64;  // C_i / A_i bit vectors are 64 bits wide here

}  // namespace sanvp::barrier
