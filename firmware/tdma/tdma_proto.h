// The host <-> firmware contract of the TDMA clock-synchronization firmware
// (firmware/tdma/tdma_sync_fw.cpp; host side platform/tdma/sync_loader.*). All big-endian words.
//
// The thesis's method (tdma-realtime-myrinet.txt, 5.2): the master reads its RTC, adds the time
// the sync message takes, sends it; the slave writes the value into its RTC. Here the master's
// packet leaves by a timed send at a slot boundary, so the timestamp it carries is exactly the
// RTC at which its first byte left; the slave adds the transmission time (derived by the host from
// the link, switch and core parameters of its path, in its own nominal ticks) and applies it as
// an RTC adjustment relative to the RTC it read on waking for the packet.
//
// Host interface block (HIF) in NIC SRAM, published through the mailbox:
//
//   0x00 magic 'STDM'            firmware      0x04 version              firmware
//   0x08 max sends               firmware      0x0C go                   host: 1 when filled in
//   0x10 role                    host: kRoleMaster or kRoleSlave
//   0x14 slot_ticks              host: one TDMA slot in nominal RTC ticks
//   0x18 period                  host: P, slots of one sync period (the TDMA cycle of the sync streams)
//   0x1C periods                 host: sync periods to run (master: sends; slave: packets to take)
//   0x20 start_hi, 0x24 start_lo host: RTC at which slot 0 begins (master)
//   0x28 tx_ticks                host (slave): transmission time, timed start to the RTC read, in ticks
//   0x2C apply                   host (slave): syncs to apply, then only measure; kAll = every one
//   0x30 done_host               host: host address of the completion block
//   0x34 sends                   host (master): S, entries of the send table
//   0x40 table                   host (master): per send, (slot position within the period, node),
//                                positions strictly ascending (the scheduler's sync reservations)
//
// Sync packet (after the route bytes): type kPacketType (2 bytes), slot n (4), RTC hi, lo (4 + 4):
// the master's RTC when the packet's first byte left, the boundary of slot n.
//
// Completion block (kDoneWords words): kDoneMagic, error, sent, received, applied, refused sends.
#pragma once
#include <stdint.h>

namespace sanvp::tdma_abi {

inline constexpr uint32_t kHifMagic = 0x5354444Du;  // "STDM"
inline constexpr uint32_t kVersion = 1;
inline constexpr uint32_t kHifVersion = 0x04, kHifMaxSends = 0x08, kHifGo = 0x0C, kHifRole = 0x10, kHifSlotTicks = 0x14,
                          kHifPeriod = 0x18, kHifPeriods = 0x1C, kHifStartHi = 0x20, kHifStartLo = 0x24, kHifTxTicks = 0x28,
                          kHifApply = 0x2C, kHifDoneHost = 0x30, kHifSends = 0x34, kHifTable = 0x40;
inline constexpr uint32_t kMaxSends = 256;
inline constexpr uint32_t kHifBytes = kHifTable + 8 * kMaxSends;
inline constexpr uint32_t kRoleMaster = 1, kRoleSlave = 2;
inline constexpr uint32_t kAll = 0xFFFFFFFFu;

inline constexpr uint16_t kPacketType = 0x7D5C;
inline constexpr uint32_t kPayload = 2 + 4 + 8;  // type, slot, timestamp: bytes after the route bytes (CRC not included)

inline constexpr uint32_t kDoneMagic = 0x54444D44u;  // "TDMD"
inline constexpr uint32_t kDoneWords = 8;
inline constexpr uint32_t kDoneError = 1, kDoneSent = 2, kDoneReceived = 3, kDoneApplied = 4, kDoneRefused = 5;
inline constexpr uint32_t kErrNone = 0, kErrConfig = 1, kErrStartPast = 2, kErrNoRoute = 3, kErrSram = 4;

// The slave's receive path, in core cycles from the receive-done interrupt to the RTC read: the
// WAIT load returning, then the RTC_LO load (tdma_sync_fw.cpp reads the RTC first thing). The
// host adds it to the wire time; checked against the instruction trace (docs/tdma.md).
inline constexpr uint32_t kRxReadCycles = 2;

// Probe tags (fw::probe).
inline constexpr uint32_t kProbeSlot = 0x7D500001u;    // master, value n: slot boundary n had just passed (its send left)
inline constexpr uint32_t kProbeBefore = 0x7D500002u;  // slave, value n: the packet of slot n arrived, RTC not yet set
inline constexpr uint32_t kProbeAfter = 0x7D500003u;   // slave, value n + 1: RTC set from the packet of slot n
inline constexpr uint32_t kProbeRefused = 0x7D500004u; // master, value n: the timed send of slot n was refused (start passed)

}  // namespace sanvp::tdma_abi
