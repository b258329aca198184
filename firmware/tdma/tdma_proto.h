// The host <-> firmware contract of the TDMA firmware (firmware/tdma/tdma_fw.cpp; host side
// platform/tdma/node_loader.*). All big-endian words.
//
// One image for clock synchronization (thesis 5.2) and slot sending (4.3, 4.4): every NIC walks
// a send table of one TDMA cycle (the host's, from the scheduler's reservations): per entry the
// slot's position in the cycle, what to send (a sync timestamp, a reserved message
// staged by the host, a best-effort packet) and its route. Each packet leaves by a timed send at
// its slot start plus the entry's offset (early sending: negative), so the start does not depend
// on the firmware's latency. A slave also takes the master's sync packets: it sets its RTC to the
// timestamp plus the transmission time the host derived, relative to the RTC it read on waking.
//
// Host interface block (HIF) in NIC SRAM, published through the mailbox:
//
//   0x00 magic 'STDM'            firmware      0x04 version              firmware
//   0x08 max entries             firmware      0x0C go                   host: 1 when filled in
//   0x10 role                    host: kRoleMaster or kRoleSlave (sync)
//   0x14 lead                    host: ticks before a send's start at which the firmware queues it
//   0x18 bank                    host: the bank (0 or 1) of the first cycle
//   0x1C cycles                  host: TDMA cycles to run (of whichever bank is active)
//   0x20 first_hi, 0x24 first_lo host: RTC of the boundary of cycle 0
//   0x28 (unused)
//   0x2C apply                   host (slave): syncs to apply, then only measure; kAll = every one
//   0x30 done_host               host: host address of the completion block
//   0x34 syncs                   host (slave): sync packets to take before finishing (read at the end:
//                                the host rewrites it when a switch-over changes the count)
//   0x38 stage                   firmware: SRAM address of the staging ring (kStageN buffers of kStageBytes)
//   0x3C first_slot              host: absolute slot number of the boundary of cycle 0
//   0x40 clock                   firmware: low word of its RTC, read on every wake (the host's
//                                staging pacer: it cannot read the RTC register, so it polls this
//                                word for a change and takes the new value as the RTC at that instant)
//   0x44 + 16 b, b = 0, 1        host: bank b: entries, cycle slots, cycle ticks, tx_ticks (the
//                                slave's sync transmission time, timed start to its RTC read)
//   0x64 switch_bank, 0x68 switch_at   host: at the boundary of absolute slot switch_at - 1, make
//                                bank switch_bank active (0: no switch pending); one PIO write
//   0x6C switched                firmware: switch_at of the last switch it made
//   0x80 + b x kBankBytes        host: bank b's table, entries of kEntryWords words (below)
//
// Double-buffered tables (the dynamic part, thesis 4.3): the host writes a new schedule's table
// into the inactive bank while the firmware walks the active one, then the switch words. The
// firmware reads them once per cycle, two leads before the next boundary (before any send of
// the next cycle is queued), and switches only at the boundary they name: every node at the
// same cycle boundary by its own synchronized RTC, or none that did not get the words in time.
//
// Entry words: 0 pos_ticks (the slot start minus the cycle's boundary, ticks), 1 pos_slots (the
// same in slots), 2 kind << 24 | offset sign << 23 | route length (0..kMaxRoute), 3 offset ticks
// (start = slot start -/+ this), 4 payload bytes, 5 stream id, 6..7 route bytes (first byte most
// significant).
//
// Staging (kind kData): the node's m-th data message (m = 0, 1, ... over the run, in send order)
// lies in staging buffer m mod kStageN: word 0 = m + 1 (the host writes it in the same PCI
// transaction as the payload at byte kStageHead), so the firmware sees the whole message or
// none. At lead ticks before the start it checks the word: m + 1 -> queued; otherwise a staging
// miss, counted and probed, and the message is not sent.
//
// Packets after the route bytes: sync: kSyncType (2), slot n (4), RTC hi, lo (4 + 4) = the RTC
// at which its first byte left. data/best effort: kDataType/kBestType (2), slot n (4), stream
// (4), node (4), then the payload.
//
// Completion block (kDoneWords words): kDoneMagic, error, then the counters below.
#pragma once
#include <stdint.h>

namespace sanvp::tdma_abi {

inline constexpr uint32_t kHifMagic = 0x5354444Du;  // "STDM"
inline constexpr uint32_t kVersion = 4;  // 4: double-buffered banks, switch-over at a cycle boundary
inline constexpr uint32_t kHifVersion = 0x04, kHifMaxEntries = 0x08, kHifGo = 0x0C, kHifRole = 0x10, kHifLead = 0x14,
                          kHifBank = 0x18, kHifCycles = 0x1C, kHifFirstHi = 0x20, kHifFirstLo = 0x24,
                          kHifApply = 0x2C, kHifDoneHost = 0x30, kHifSyncs = 0x34, kHifStage = 0x38, kHifFirstSlot = 0x3C,
                          kHifClock = 0x40, kHifBanks = 0x44, kHifSwitchBank = 0x64, kHifSwitchAt = 0x68, kHifSwitched = 0x6C,
                          kHifTable = 0x80;
inline constexpr uint32_t kBankWords = 4;  // entries, cycle slots, cycle ticks, tx_ticks
inline constexpr uint32_t kBankEntries = 0, kBankCycleSlots = 1, kBankCycleTicks = 2, kBankTxTicks = 3;
inline constexpr uint32_t kMaxEntries = 512;
inline constexpr uint32_t kEntryWords = 8;
inline constexpr uint32_t kBankBytes = 4 * kEntryWords * kMaxEntries;
inline constexpr uint32_t kHifBytes = kHifTable + 2 * kBankBytes;
inline constexpr uint32_t kRoleMaster = 1, kRoleSlave = 2;
inline constexpr uint32_t kAll = 0xFFFFFFFFu;

inline constexpr uint32_t kKindSync = 1, kKindData = 2, kKindBest = 3;
inline constexpr uint32_t kEntryNegative = 1u << 23;  // word 2: the offset is subtracted (early sending)
inline constexpr uint32_t kMaxRoute = 8;

inline constexpr uint32_t kStageN = 8;           // staging buffers (a ring; power of two)
inline constexpr uint32_t kStageHead = 32;       // payload offset in a buffer: sequence word, then room for route + header
inline constexpr uint32_t kMaxPayload = 8192;    // bytes of one message
inline constexpr uint32_t kStageBytes = kStageHead + kMaxPayload;

inline constexpr uint16_t kPacketType = 0x7D5C;  // sync
inline constexpr uint16_t kSyncType = kPacketType, kDataType = 0x7D5D, kBestType = 0x7D5E;
inline constexpr uint32_t kPayload = 2 + 4 + 8;  // sync: type, slot, timestamp: bytes after the route bytes (CRC not included)
inline constexpr uint32_t kDataHeader = 2 + 4 + 4 + 4;  // data/best effort: type, slot, stream, node

inline constexpr uint32_t kDoneMagic = 0x54444D44u;  // "TDMD"
inline constexpr uint32_t kDoneWords = 12;
inline constexpr uint32_t kDoneError = 1, kDoneSent = 2, kDoneReceived = 3, kDoneApplied = 4, kDoneRefused = 5, kDoneData = 6,
                          kDoneStageMiss = 7, kDoneBest = 8, kDoneDataRx = 9, kDoneLate = 10, kDoneStale = 11;
inline constexpr uint32_t kErrNone = 0, kErrConfig = 1, kErrStartPast = 2, kErrNoRoute = 3, kErrSram = 4;

// The slave's receive path, in core cycles from the receive-done interrupt to the RTC read: the
// WAIT load returning, then the RTC_LO load (tdma_fw.cpp reads the RTC first thing). The
// host adds it to the wire time; checked against the instruction trace (docs/tdma.md).
inline constexpr uint32_t kRxReadCycles = 2;

// Probe tags (fw::probe).
inline constexpr uint32_t kProbeSlot = 0x7D500001u;    // master, value n: its sync of slot n was queued (any master probe dates its boundaries)
inline constexpr uint32_t kProbeBefore = 0x7D500002u;  // slave, value n: the packet of slot n arrived, RTC not yet set
inline constexpr uint32_t kProbeAfter = 0x7D500003u;   // slave, value n + 1: RTC set from the packet of slot n
inline constexpr uint32_t kProbeRefused = 0x7D500004u; // value: RTC low word of the start of a refused timed send
inline constexpr uint32_t kProbeStaged = 0x7D500005u;  // value m: data message m found staged and queued
inline constexpr uint32_t kProbeStageMiss = 0x7D500006u;  // value m: data message m not staged at its check: not sent
inline constexpr uint32_t kProbeSwitch = 0x7D500007u;  // value A: first wake at or after the boundary of slot A it switched banks at

}  // namespace sanvp::tdma_abi
