// The host <-> firmware contract of sanvp's basic messaging layer, shared by the firmware
// (firmware/msg/msg_fw.cpp, compiled for Lanai) and the host driver (platform/host). Plain
// constants only: the host reads and writes these words by PIO, byte order big-endian.
//
// Host interface block (HIF) in NIC SRAM; the firmware publishes its address in the mailbox
// register once it is ready (modelled on the Clint paper's Figure 2: send queue + doorbell,
// receive queue, completion queue in host memory):
//
//   0x00 magic        0x00 'SANM'                       firmware
//   0x04 sq_entries / rq_entries / cq_entries           firmware / firmware / host
//   0x10 sq_prod      send-queue producer index         host (PIO)
//   0x14 rq_prod      receive-queue producer index      host (PIO)
//   0x18 cq_host      host address of the completion queue   host, before go
//   0x1C cq_entries                                     host, before go
//   0x20 mtu          fragment payload bytes            host, before go (firmware default)
//   0x24 go           1 = the host has filled the fields above
//   0x28 irq          1 = interrupt the host after each completion entry (else it polls)
//   0x40 send queue   sq_entries x {host addr, length, destination node, tag}
//   ...  recv queue   rq_entries x {host addr, capacity}
//
// Buffer ownership: a send buffer belongs to the NIC from the post until its kCqSent
// completion (all bytes copied into NIC SRAM); a receive buffer from the post until the
// kCqRecv completion that names it (receive buffers are used in post order).
#pragma once
#include <stdint.h>

#include "firmware/runtime/include/fw/routes.h"

namespace sanvp::msg {

inline constexpr uint32_t kHifMagic = 0x53414E4Du;  // "SANM"
inline constexpr uint32_t kHifSqEntries = 0x04, kHifRqEntries = 0x08, kHifCqEntriesFw = 0x0C;
inline constexpr uint32_t kHifSqProd = 0x10, kHifRqProd = 0x14, kHifCqHost = 0x18, kHifCqEntries = 0x1C;
inline constexpr uint32_t kHifMtu = 0x20, kHifGo = 0x24, kHifIrq = 0x28;
inline constexpr uint32_t kHifSq = 0x40;
inline constexpr uint32_t kSqEntries = 16, kRqEntries = 32;
inline constexpr uint32_t kSqEntryBytes = 16, kRqEntryBytes = 8;
inline constexpr uint32_t kHifRq = kHifSq + kSqEntries * kSqEntryBytes;
inline constexpr uint32_t kHifBytes = kHifRq + kRqEntries * kRqEntryBytes;

// Completion-queue entry in host memory (16 bytes, big-endian words), written by NIC DMA:
//   seq (1, 2, 3, ... : a new entry is one whose seq is the next expected), kind<<24 | peer
//   node, length, tag. The receive kind names the message's source node.
inline constexpr uint32_t kCqEntryBytes = 16;
inline constexpr uint32_t kCqSent = 1, kCqRecv = 2, kCqRecvTruncated = 3;

// Packet on the wire after the route bytes: type (2 bytes) then this header, then data. With
// the type field word-aligned in NIC SRAM, every 32-bit field is aligned (word loads and
// stores in the firmware) and the data starts 8-byte aligned at type + 24:
//   +2 src node (2), +4 message id (4), +8 tag (4), +12 total message length (4),
//   +16 fragment offset (4), +20 flags (4: bit 0 first fragment, bit 1 last)
inline constexpr uint16_t kMsgPacketType = 0x0500;
inline constexpr uint32_t kMsgHeaderBytes = 22;
inline constexpr uint32_t kOffSrc = 2, kOffMsgId = 4, kOffTag = 8, kOffTotal = 12, kOffFragment = 16, kOffFlags = 20, kOffData = 24;
inline constexpr uint32_t kFlagFirst = 1, kFlagLast = 2;

inline constexpr uint32_t kDefaultMtu = 4096;
inline constexpr uint32_t kMaxMtu = 49152;  // GRIM-style 48 KiB fragments

// Node ids and source routes follow the generic route ABI (fw/routes.h).
using route_abi::kMaxNodes;

}  // namespace sanvp::msg
