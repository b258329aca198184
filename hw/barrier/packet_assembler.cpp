#include "hw/barrier/packet_assembler.hpp"

namespace sanvp::barrier {

int BarrierPacketAssembler::length_for(std::uint8_t lead) {
  switch (lead) {
    case kLeadMessage: return kMessageFlits;
    case kLeadConfig: return kConfigFlits;
    case kLeadResponse: return kResponseFlits;
    default: return 0;
  }
}

std::optional<BarrierPacket> BarrierPacketAssembler::push(std::uint8_t byte, bool tail) {
  bytes_.push_back(byte);
  const int want = length_for(bytes_.front());
  const bool full = want > 0 && static_cast<int>(bytes_.size()) == want;
  if (!full && !tail && want > 0) return std::nullopt;
  std::vector<std::uint8_t> b;
  b.swap(bytes_);
  if (!full || !tail) return BarrierPacket{BadBarrierPacket{std::move(b)}};
  if (b[0] == kLeadMessage) {
    if (auto m = decode_message(b)) return BarrierPacket{*m};
  } else if (b[0] == kLeadConfig) {
    if (auto c = decode_config(b)) return BarrierPacket{*c};
  } else if (auto r = decode_response(b)) {
    return BarrierPacket{*r};
  }
  return BarrierPacket{BadBarrierPacket{std::move(b)}};
}

}  // namespace sanvp::barrier
