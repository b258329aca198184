// The host <-> firmware contract of sanvp's GRIM message layer (General-purpose Reliable
// In-order Messages, grim-message-layer.txt), shared by the firmware (firmware/grim, compiled
// for Lanai) and the host library (platform/grim). Plain constants: the host reads and writes
// these words by PIO, byte order big-endian.
//
// Host interface block (HIF) in NIC SRAM, published through the mailbox when the firmware is
// ready (the layout of firmware/msg, plus the protocol's knobs and counters):
//
//   0x00 magic 'GRIM'     firmware      0x04 version             firmware
//   0x08 sq_entries       firmware      0x0C rq_entries          firmware
//   0x10 sq_prod          host (PIO): send-queue producer index
//   0x14 rq_prod          host (PIO): receive-queue producer index
//   0x18 cq_host          host, before go: host address of the completion queue
//   0x1C cq_entries       host, before go
//   0x20 mtu              host, before go: fragment payload bytes (0: kDefaultMtu)
//   0x24 rto_us           host, before go: retransmission timeout in us of the NIC's clock
//   0x28 backoff_us       host, before go: first back-off after a NACK (doubles per NACK)
//   0x2C pool             host, before go: receive pool buffers (packets accepted, not yet in host memory)
//   0x30 window           host, before go: packets retained per (destination, channel), power of two
//   0x34 send_buffers     host, before go: send buffers shared by all streams
//   0x38 irq              host: 1 = interrupt the host after each completion entry (else it polls)
//   0x3C go               host: 1 when the fields above are filled in
//   0x40 stats            firmware: kStatWords counters (kStat*), read by PIO
//   0xF0 channels         host, before go: the logical channels endpoint 0 (the host) owns, bit c (0: all)
//   0xF4 endpoints        host, before go: endpoints 0..n-1 may open (1 or 0: the host alone)
//   0x100 send queue      sq_entries x {host addr, length, handler << 24 | dst endpoint << 16 | dst << 8 | channel, tag}
//   ...  recv queue       rq_entries x {host addr, capacity}
//   kHifEp               endpoint blocks 1..kMaxEndpoints-1 (PCI devices), kEpBytes each (kEp*)
//
// Endpoints: the host CPU is endpoint 0 (the rings above); a PCI device opens endpoint e >= 1 by
// writing its block's fields, then open = 1, then the NIC's doorbell; the firmware answers in
// state (kEpOpen, or kEpRefused: its channels are not free or none). Every ring has exactly one
// producer (send and receive queue: the endpoint; completion queue: the NIC), and every logical
// channel one owner, so endpoints never synchronize with each other. A send names the
// destination node and endpoint and an active-message handler id (0: none), carried to the
// receiving endpoint's completion entry.
//
// Buffer ownership: a send buffer belongs to the NIC from the post until its kCqSent
// completion (all bytes copied into NIC SRAM, where the NIC keeps them until acknowledged); a
// receive buffer from the post until the kCqRecv completion that names its queue slot. Messages
// take receive buffers in the order their first fragments are delivered (in order per channel;
// channels and sources interleave).
#pragma once
#include <stdint.h>

namespace sanvp::grim {

inline constexpr uint32_t kHifMagic = 0x4752494Du;  // "GRIM"
inline constexpr uint32_t kVersion = 2;
inline constexpr uint32_t kHifVersion = 0x04, kHifSqEntries = 0x08, kHifRqEntries = 0x0C;
inline constexpr uint32_t kHifSqProd = 0x10, kHifRqProd = 0x14, kHifCqHost = 0x18, kHifCqEntries = 0x1C;
inline constexpr uint32_t kHifMtu = 0x20, kHifRtoUs = 0x24, kHifBackoffUs = 0x28, kHifPool = 0x2C;
inline constexpr uint32_t kHifWindow = 0x30, kHifSendBuffers = 0x34, kHifIrq = 0x38, kHifGo = 0x3C;
inline constexpr uint32_t kHifStats = 0x40;
inline constexpr uint32_t kHifSq = 0x100;
inline constexpr uint32_t kSqEntries = 32, kRqEntries = 64;
inline constexpr uint32_t kSqEntryBytes = 16, kRqEntryBytes = 8;
inline constexpr uint32_t kHifRq = kHifSq + kSqEntries * kSqEntryBytes;
inline constexpr uint32_t kHifChannels = 0xF0, kHifEndpoints = 0xF4;
inline constexpr uint32_t kMaxEndpoints = 4;  // endpoint 0: the host CPU; 1..3: PCI devices
// An endpoint block (endpoints 1..kMaxEndpoints-1), written by its device over PCI:
inline constexpr uint32_t kEpSqProd = 0x00, kEpRqProd = 0x04;  // producer indices
inline constexpr uint32_t kEpCq = 0x08, kEpCqEntries = 0x0C;   // completion queue: bus address (the device's memory), entries
inline constexpr uint32_t kEpBell = 0x10;      // bus address the NIC writes a completion's seq to after its entry (the device's doorbell; 0: none)
inline constexpr uint32_t kEpChannels = 0x14;  // logical channels it owns, bit c (disjoint from every other endpoint's)
inline constexpr uint32_t kEpOpenWord = 0x18;  // 1: open it (written last, then the NIC's doorbell)
inline constexpr uint32_t kEpState = 0x1C;     // firmware: kEpClosed, kEpOpen, kEpRefused
inline constexpr uint32_t kEpSq = 0x20;        // send queue, kSqEntries entries as the host's
inline constexpr uint32_t kEpClosed = 0, kEpOpen = 1, kEpRefused = 2;
inline constexpr uint32_t kHifEp = kHifRq + kRqEntries * kRqEntryBytes;
inline constexpr uint32_t kEpRq = kEpSq + kSqEntries * kSqEntryBytes;
inline constexpr uint32_t kEpBytes = kEpRq + kRqEntries * kRqEntryBytes;
inline constexpr uint32_t kHifBytes = kHifEp + (kMaxEndpoints - 1) * kEpBytes;
// Offset of endpoint e's block (e >= 1) in the HIF.
inline constexpr uint32_t ep_block(uint32_t e) { return kHifEp + (e - 1) * kEpBytes; }
// Active-message handler ids: 0 plain message, 1..kAmMaxHandler assigned by the master,
// kAmRegistry the registration protocol's own (platform/grim/grim_am.hpp).
inline constexpr uint32_t kAmMaxHandler = 254, kAmRegistry = 255;
inline constexpr uint32_t kMaxMessage = (1u << 24) - 1;  // length and offsets share words with ids

// Counters the firmware keeps in the HIF (word index from kHifStats).
enum Stat : uint32_t {
  kStatDataSent,      // data packets sent the first time
  kStatRetransmits,   // data packets sent again (go-back-N)
  kStatAcksSent,      // ACK packets sent (each acknowledges a block of packets)
  kStatNacksSent,     // NACK packets sent (no pool buffer, or a gap in the sequence)
  kStatAcksReceived,
  kStatNacksReceived, // NACKs that rolled a stream back (stale ones are not counted)
  kStatTimeouts,      // retransmission timeouts that rolled a stream back
  kStatBadDropped,    // packets dropped as damaged: CRC error, truncated, wrong length or type
  kStatGapDropped,    // data packets dropped because an earlier one is missing
  kStatDupDropped,    // data packets received again (already accepted): re-acknowledged
  kStatNoBufDropped,  // data packets dropped for want of a pool buffer (answered by a NACK)
  kStatAccepted,      // data packets accepted into the pool
  kStatDelivered,     // fragments written into host memory
  kStatPoolFree,      // pool buffers free now
  kStatPoolMin,       // fewest pool buffers ever free
  kStatSendFree,      // send buffers free now
  kStatMisrouted,     // packets for another node (a damaged route byte)
  kStatBackoffs,      // back-off periods started (NACK for want of a buffer)
  kStatError,         // kErr* when the firmware stopped
  kStatSendRefused,   // sends refused (error completion): bad destination, a channel the endpoint does not own, bad length
  kStatNoEndpoint,    // messages for an endpoint that is not open here (dropped once accepted)
  kStatWords
};
inline constexpr uint32_t kErrNone = 0, kErrConfig = 1, kErrSram = 2;

// Completion-queue entry in host memory (32 bytes, big-endian words), written by NIC DMA:
//   seq (1, 2, 3, ...: an entry is new when its seq is the next expected),
//   kind << 24 | channel << 16 | peer endpoint << 8 | peer node, length, tag, receive-queue slot
//   (receive kinds: the count of receive buffers posted before this one), handler id (receive
//   kinds), then 2 reserved words. The peer endpoint of a received message is its sender's.
inline constexpr uint32_t kCqEntryBytes = 32;
inline constexpr uint32_t kCqSent = 1, kCqRecv = 2, kCqRecvTruncated = 3, kCqSendError = 4;

// Logical channels per (source, destination) pair and the nodes a NIC talks to.
inline constexpr uint32_t kChannels = 4;
inline constexpr uint32_t kMaxNodes = 16;

// Packet on the wire after the route bytes; every field word-aligned with the type word-aligned
// in SRAM. Control packets (ACK, NACK) are the first kCtrlBytes; data packets carry kDataHeader
// bytes of header, then the fragment.
//   +0  type (2) = kPacketType, src node (2)
//   +4  dst endpoint (1), dst node (1) (a damaged route byte can deliver a good packet elsewhere),
//       kind (1), channel (1)
//   +8  seq: DATA its sequence number in (src, dst, channel); ACK/NACK the next one expected
//   +12 epoch (1): DATA the sender's rollback count, NACK the epoch of the packet it answers;
//       flags (1); fragment bytes (2)
//   +16 tag, +20 handler id (1) | total message length (3), +24 source endpoint (1) | fragment
//       offset (3)                                                         (DATA only)
//   +28 piggy-backed ACK: the next sequence number the sender expects on the reverse stream
//       (from this packet's destination, same channel), written when the packet is queued
inline constexpr uint16_t kPacketType = 0x0600;
inline constexpr uint32_t kKindData = 1, kKindAck = 2, kKindNack = 3;
inline constexpr uint32_t kFlagFirst = 1, kFlagLast = 2;  // DATA
inline constexpr uint32_t kNackNoBuf = 1, kNackGap = 2;   // NACK: why (no buffer: back off)
inline constexpr uint32_t kOffSrc = 2, kOffDst = 4, kOffSeq = 8, kOffEpoch = 12, kOffTag = 16, kOffTotal = 20,
                          kOffFragment = 24, kOffAck = 28, kDataHeader = 32;
inline constexpr uint32_t kCtrlBytes = 16;

inline constexpr uint32_t kDefaultMtu = 4096;
inline constexpr uint32_t kMaxMtu = 49152;  // GRIM's 48 KiB fragments
inline constexpr uint32_t kDefaultRtoUs = 400, kDefaultBackoffUs = 20;
// kMaxPool: the paper's NI buffer (Figure 3: 128 messages). SRAM (1 MiB): (ring 8 + pool 128) x
// 4128 B at the default 4 KiB mtu = 561 KB of receive buffers, beside 16 send buffers (67 KB),
// the firmware's code and data and its 8 KiB stack; larger fragments fit fewer (kErrSram).
inline constexpr uint32_t kDefaultPool = 16, kMaxPool = 128;
inline constexpr uint32_t kDefaultWindow = 8, kMaxWindow = 16;
inline constexpr uint32_t kDefaultSendBuffers = 16, kMaxSendBuffers = 64;

}  // namespace sanvp::grim
