// How barrier traffic looks on a Myrinet-class link (bytes = flits). Ordinary worms start with a
// route byte, which is a port number (< 64); a barrier-unit packet starts with a lead byte >= 0xFC
// instead, so a switch input can divert it to the barrier unit at the buffer head without
// reading further. Every packet ends with CRC-8 (flit.hpp) over the bytes after the lead byte.
//
//   barrier message  : 0xFE  msg[15:8] msg[7:0]                                  CRC   (4 flits)
//   config request   : 0xFD  op gid parent cmask[63:56] ... cmask[7:0]            CRC  (13 flits)
//   config response  : 0xFC  status reg gid                                       CRC   (5 flits)
//   spilled message  : 0xFF  in_port msg[15:8] msg[7:0]                           CRC   (5 flits)
//
// A spilled message is a barrier message of a group that has no register in the switch because
// the switch was full when the group was set up: the switch sends it, with the port it came in
// on, to the node that keeps the group's register in memory (BTIN Section 2.2's fallback). That
// node answers with ordinary worms: a route byte (the output port) followed by a barrier message,
// which the next switch or node receives as an ordinary barrier message.
//
// A config request always comes from a node attached to the switch; the response goes back out
// of the port the request came in on. Barrier messages between switches and to member nodes use
// the same 4-flit format in both directions.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "hw/barrier/barrier_message.hpp"
#include "hw/barrier/config.hpp"

namespace sanvp::barrier {

inline constexpr std::uint8_t kLeadMessage = 0xFE;
inline constexpr std::uint8_t kLeadConfig = 0xFD;
inline constexpr std::uint8_t kLeadResponse = 0xFC;
inline constexpr std::uint8_t kLeadSpilled = 0xFF;
inline constexpr int kMessageFlits = 4;
inline constexpr int kConfigFlits = 13;
inline constexpr int kResponseFlits = 5;
inline constexpr int kSpilledFlits = 5;

// True if a worm whose first flit is `lead` belongs to the barrier unit.
inline constexpr bool is_barrier_lead(std::uint8_t lead) { return lead >= kLeadResponse; }

std::vector<std::uint8_t> encode_message(const BarrierMessage& m);
std::vector<std::uint8_t> encode_config(const ConfigCommand& c);
std::vector<std::uint8_t> encode_response(const ConfigResponse& r, std::uint8_t gid);
std::vector<std::uint8_t> encode_spilled(int in_port, const BarrierMessage& m);

// Decoders return nothing for a wrong lead byte, wrong length or CRC mismatch (the switch drops
// and counts such packets, as a link CRC error).
std::optional<BarrierMessage> decode_message(const std::vector<std::uint8_t>& bytes);
std::optional<ConfigCommand> decode_config(const std::vector<std::uint8_t>& bytes);
struct DecodedResponse { ConfigResponse resp; std::uint8_t gid; };
std::optional<DecodedResponse> decode_response(const std::vector<std::uint8_t>& bytes);
struct SpilledMessage { int in_port; BarrierMessage msg; };
std::optional<SpilledMessage> decode_spilled(const std::vector<std::uint8_t>& bytes);

}  // namespace sanvp::barrier
