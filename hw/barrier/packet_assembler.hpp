// BarrierPacketAssembler: collects the flits of a barrier-unit packet at a switch input (after
// the input saw a lead byte with is_barrier_lead) until the packet is whole, then decodes it. The
// packet length follows from the lead byte (wire_format.hpp), so the input never needs to wait
// for an end-of-packet mark to know where a barrier packet ends; it still checks that the tail
// flit carries it.
#pragma once
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "hw/barrier/wire_format.hpp"

namespace sanvp::barrier {

struct BadBarrierPacket {
  std::vector<std::uint8_t> bytes;  // CRC mismatch, wrong length/tail, bad field: dropped, counted
};
using BarrierPacket = std::variant<BarrierMessage, ConfigCommand, DecodedResponse, BadBarrierPacket>;

class BarrierPacketAssembler {
 public:
  // Feeds one flit; `tail` is the flit's end-of-packet mark. Returns the packet when complete.
  std::optional<BarrierPacket> push(std::uint8_t byte, bool tail);
  bool idle() const { return bytes_.empty(); }
  static int length_for(std::uint8_t lead);  // 0 if not a barrier lead byte

 private:
  std::vector<std::uint8_t> bytes_;
};

}  // namespace sanvp::barrier
