// The host <-> firmware contract of the FBS firmware (firmware/fbs/fbs_fw.cpp; host side
// platform/fbs/fbs_loader.*). Plain constants: the host writes these words by PIO, the firmware
// DMAs its completion block into host memory; all big-endian words.
//
// Host interface block (HIF) in NIC SRAM, published through the mailbox when the firmware is
// ready:
//
//   0x00 magic 'SFBS'            firmware      0x04 version           firmware
//   0x08 max sync slots          firmware      0x0C go                host: 1 when filled in
//   0x10 slot_ticks              host: one time slot in this NIC's RTC ticks
//   0x14 packet_len              host: bytes of a synchronization packet from the first route
//                                byte (the engine appends the CRC byte)
//   0x18 sync_slots              host: S, slots of one synchronization round
//   0x1C period                  host: si, slots from one round's start to the next (>= S + 2)
//   0x20 rounds                  host: periods to run, then report done
//   0x24 start_hi, 0x28 start_lo host: RTC value at which slot 0 begins
//   0x2C probe_every             host: 0 = probe the boundaries of the synchronization slots,
//                                the round's end and the period's last slot; n = every n-th
//                                slot boundary as well
//   0x30 done_host               host: host address of the completion block
//   0x34 free_run_after          host: rounds after which the schedule stops (clocks run free);
//                                0xFFFFFFFF = never
//   0x40 table                   host: per sync slot j < S, the destination node of this NIC's
//                                packet (itself: the U-turn), or kNoSend
//
// Completion block (DMA'd to done_host, kDoneWords words): kDoneMagic, error code (kErr*),
// pauses, paused ticks (mod 2^32), refused sends, packets received, packets sent.
//
// Slots: slot n begins when the RTC reaches start + n * slot_ticks. The firmware pauses its slot
// clock while its packet is held by STOP (paper section 3.1) by moving its RTC back by the ticks
// the send engine was held (SEND_BLOCKED): timers and timed sends are RTC deadlines and follow.
#pragma once
#include <stdint.h>

namespace sanvp::fbs_abi {

inline constexpr uint32_t kHifMagic = 0x53464253u;  // "SFBS"
inline constexpr uint32_t kVersion = 1;
inline constexpr uint32_t kHifVersion = 0x04, kHifMaxSlots = 0x08, kHifGo = 0x0C, kHifSlotTicks = 0x10, kHifPacketLen = 0x14,
                          kHifSyncSlots = 0x18, kHifPeriod = 0x1C, kHifRounds = 0x20, kHifStartHi = 0x24, kHifStartLo = 0x28,
                          kHifProbeEvery = 0x2C, kHifDoneHost = 0x30, kHifFreeRunAfter = 0x34, kHifTable = 0x40;
inline constexpr uint32_t kMaxSyncSlots = 512;
inline constexpr uint32_t kHifBytes = kHifTable + 4 * kMaxSyncSlots;
inline constexpr uint32_t kNoSend = 0xFFFFFFFFu;
inline constexpr uint32_t kNever = 0xFFFFFFFFu;

// Largest packet the firmware's buffers take (route bytes + type + payload).
inline constexpr uint32_t kMaxPacket = 8192;
inline constexpr uint32_t kMinPacket = 8;  // route bytes + type + slot number at least
inline constexpr uint16_t kPacketType = 0x0FB5;

inline constexpr uint32_t kDoneMagic = 0x46425344u;  // "FBSD"
inline constexpr uint32_t kDoneWords = 8;
inline constexpr uint32_t kDoneError = 1, kDonePauses = 2, kDonePausedTicks = 3, kDoneRefused = 4, kDoneReceived = 5, kDoneSent = 6;
// Error codes in the completion block.
inline constexpr uint32_t kErrNone = 0, kErrConfig = 1, kErrStartPast = 2, kErrNoRoute = 3, kErrSram = 4;

// Probe tags (fw::probe): the measurement's view of the slot clock.
inline constexpr uint32_t kProbeSlot = 0xFB50001u;     // value: slot n; the slot boundary had just passed
inline constexpr uint32_t kProbePause = 0xFB50002u;    // value: ticks the slot clock was paused
inline constexpr uint32_t kProbeRefused = 0xFB50003u;  // value: slot whose timed send the engine refused (start passed)

}  // namespace sanvp::fbs_abi
