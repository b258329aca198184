#include "hw/barrier/wire_format.hpp"

#include "hw/link/flit.hpp"

namespace sanvp::barrier {

const char* to_string(ConfigStatus s) {
  switch (s) {
    case ConfigStatus::Ok: return "ok";
    case ConfigStatus::Full: return "full";
    case ConfigStatus::Duplicate: return "duplicate";
    case ConfigStatus::NotFound: return "not-found";
    case ConfigStatus::Invalid: return "invalid";
  }
  return "?";
}

namespace {

void seal(std::vector<std::uint8_t>& b) {
  std::uint8_t crc = 0;
  for (std::size_t i = 1; i < b.size(); ++i) crc = crc8_update(crc, b[i]);
  b.push_back(crc);
}

bool intact(const std::vector<std::uint8_t>& b, std::uint8_t lead, std::size_t len) {
  if (b.size() != len || b[0] != lead) return false;
  std::uint8_t crc = 0;
  for (std::size_t i = 1; i + 1 < b.size(); ++i) crc = crc8_update(crc, b[i]);
  return crc == b.back();
}

}  // namespace

std::vector<std::uint8_t> encode_message(const BarrierMessage& m) {
  const std::uint16_t raw = m.encode();
  std::vector<std::uint8_t> b{kLeadMessage, static_cast<std::uint8_t>(raw >> 8), static_cast<std::uint8_t>(raw)};
  seal(b);
  return b;
}

std::vector<std::uint8_t> encode_config(const ConfigCommand& c) {
  std::vector<std::uint8_t> b{kLeadConfig, static_cast<std::uint8_t>(c.op), c.gid, c.parent};
  for (int i = 7; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(c.cmask >> (8 * i)));
  seal(b);
  return b;
}

std::vector<std::uint8_t> encode_response(const ConfigResponse& r, std::uint8_t gid) {
  std::vector<std::uint8_t> b{kLeadResponse, static_cast<std::uint8_t>(r.status), r.reg, gid};
  seal(b);
  return b;
}

std::vector<std::uint8_t> encode_spilled(int in_port, const BarrierMessage& m) {
  const std::uint16_t raw = m.encode();
  std::vector<std::uint8_t> b{kLeadSpilled, static_cast<std::uint8_t>(in_port), static_cast<std::uint8_t>(raw >> 8),
                              static_cast<std::uint8_t>(raw)};
  seal(b);
  return b;
}

std::optional<BarrierMessage> decode_message(const std::vector<std::uint8_t>& b) {
  if (!intact(b, kLeadMessage, kMessageFlits)) return std::nullopt;
  return BarrierMessage::decode(static_cast<std::uint16_t>(b[1] << 8 | b[2]));
}

std::optional<ConfigCommand> decode_config(const std::vector<std::uint8_t>& b) {
  if (!intact(b, kLeadConfig, kConfigFlits) || b[1] > 3) return std::nullopt;
  ConfigCommand c;
  c.op = static_cast<ConfigOp>(b[1]);
  c.gid = b[2];
  c.parent = b[3];
  for (int i = 0; i < 8; ++i) c.cmask = c.cmask << 8 | b[4 + i];
  return c;
}

std::optional<DecodedResponse> decode_response(const std::vector<std::uint8_t>& b) {
  if (!intact(b, kLeadResponse, kResponseFlits) || b[1] > 4) return std::nullopt;
  return DecodedResponse{ConfigResponse{static_cast<ConfigStatus>(b[1]), b[2]}, b[3]};
}

std::optional<SpilledMessage> decode_spilled(const std::vector<std::uint8_t>& b) {
  if (!intact(b, kLeadSpilled, kSpilledFlits) || b[1] >= 64) return std::nullopt;
  return SpilledMessage{b[1], BarrierMessage::decode(static_cast<std::uint16_t>(b[2] << 8 | b[3]))};
}

}  // namespace sanvp::barrier
