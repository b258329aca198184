// The NIC's memory map, shared by the simulator (hw/nic), the firmware linker (platform/fw)
// and the firmware itself (firmware/runtime includes this header). One place, one truth.
//
//   0x0000_0000  SRAM (size per nic.sram.size, at most 16 MiB; code must stay below 32 MiB
//                because branch targets are absolute 25-bit addresses)
//                0x0000_0000..0x0000_00FF is left unused by the linker, so a call through a
//                null function pointer is a "fetch outside code" fault
//   0x0100_0000  system registers: console, exit, time (this issue)
//   0x0200_0000  NIC register block (DMA engines, RTC, timers, wait-for-event; next issue)
//
// MMIO stays out of 0xFFF0_0000..0xFFFF_FFFF on purpose: clang emits SLS (21-bit absolute)
// loads for constant addresses there, whose sign is ambiguous (ISA notes 3.7).
#pragma once
#include <stdint.h>

namespace sanvp::nic::map {

inline constexpr uint32_t kSramBase = 0x00000000u;
inline constexpr uint32_t kSramDefaultSize = 2u << 20;
inline constexpr uint32_t kSramMaxSize = 16u << 20;
inline constexpr uint32_t kImageBase = 0x00000100u;  // where the linker starts .text

inline constexpr uint32_t kSysBase = 0x01000000u;
inline constexpr uint32_t kSysSize = 0x00001000u;
// System register offsets (32-bit registers, big-endian like all memory).
inline constexpr uint32_t kConsoleTx = 0x000;      // W: low byte is written to the console
inline constexpr uint32_t kConsoleStatus = 0x004;  // R: bit 0 = transmitter ready (always 1)
inline constexpr uint32_t kExit = 0x008;           // W: ends the simulation with this exit code
inline constexpr uint32_t kTimeLo = 0x010;         // R: simulated time in ns, low word
inline constexpr uint32_t kTimeHi = 0x014;         // R: high word (latched when kTimeLo is read)
inline constexpr uint32_t kScratch = 0x020;        // R/W: a plain register for MMIO tests
inline constexpr uint32_t kProbeTag = 0x030;       // R/W: tag of the next probe
inline constexpr uint32_t kProbeValue = 0x034;     // W: records a probe (time, node, RTC, tag, value)

inline constexpr uint32_t kNicRegBase = 0x02000000u;
inline constexpr uint32_t kNicRegSize = 0x00010000u;

// NIC registers (offsets from kNicRegBase; 32-bit, big-endian). hw/nic/nic_regs.hpp models
// them, firmware/runtime/include/fw/nic.h gives firmware typed access, docs/nic.md explains.
namespace nic {
// Interrupt controller and sleep.
inline constexpr uint32_t kIsr = 0x000;       // R: status bits; W: write 1 to clear
inline constexpr uint32_t kImr = 0x004;       // R/W: mask (which bits wake WAIT / count as pending)
inline constexpr uint32_t kWait = 0x008;      // R: sleeps until ISR & IMR != 0, returns ISR & IMR
inline constexpr uint32_t kIsrSet = 0x00C;    // W: set bits (software events)
// Real-time clock: ticks of the NIC's own oscillator (nominal nic.osc.freq).
inline constexpr uint32_t kRtcLo = 0x010;     // R: low word (latches the high word); W: sets the counter (with the staged high word)
inline constexpr uint32_t kRtcHi = 0x014;     // R: latched high word; W: stages the high word for the next RTC_LO write
inline constexpr uint32_t kRtcFreq = 0x018;   // R: nominal oscillator frequency in kHz
inline constexpr uint32_t kRtcAdj = 0x01C;    // W: adds this signed 32-bit number of ticks to the RTC at the write instant
// Interval timers: count RTC ticks, raise kIrqTimer0/1 when they expire.
inline constexpr uint32_t kTimer0 = 0x020;    // W: arm, expires after N ticks (0 disarms); R: ticks left
inline constexpr uint32_t kTimer1 = 0x024;
// Absolute timers: arm timer 0/1 to expire when the RTC reaches (staged RTC_HI << 32) | value.
// Every timer is a deadline in RTC ticks: writing RTC_LO or RTC_ADJ moves its expiry in time.
inline constexpr uint32_t kTimer0At = 0x028;  // W: arm at an RTC value; R: low word of the deadline (0 when disarmed)
inline constexpr uint32_t kTimer1At = 0x02C;
// Host interface.
inline constexpr uint32_t kDoorbell = 0x030;  // R: last value the host wrote (the host's write raises kIrqDoorbell)
inline constexpr uint32_t kHostIrq = 0x034;   // W: interrupts the host with this value
inline constexpr uint32_t kNodeId = 0x038;    // R: this NIC's node id in the network
inline constexpr uint32_t kMailbox = 0x03C;   // R/W: a word the host can read by PIO (firmware publishes its host-interface address here)
// Host DMA engine (SRAM <-> host memory over PCI): a ring of 16-byte descriptors in SRAM.
inline constexpr uint32_t kHdmaRing = 0x040;  // W/R: SRAM address of the ring (16-byte aligned)
inline constexpr uint32_t kHdmaSize = 0x044;  // W/R: entries (1..4096)
inline constexpr uint32_t kHdmaHead = 0x048;  // W/R: producer index (firmware), mod 2^32
inline constexpr uint32_t kHdmaTail = 0x04C;  // R: descriptors completed (engine), mod 2^32
inline constexpr uint32_t kHdmaStatus = 0x050;// R: bit 0 busy; bits 31..16 errors
// Send DMA: SRAM -> link, one byte per character period, obeys STOP/GO, appends CRC-8.
inline constexpr uint32_t kSendAddr = 0x060;  // W/R: SRAM address of the packet (route bytes first)
inline constexpr uint32_t kSendLen = 0x064;   // W/R: bytes to send from SRAM (route + type + payload)
inline constexpr uint32_t kSendRoute = 0x068; // W/R: how many leading bytes are route bytes (not in the CRC)
inline constexpr uint32_t kSendCtrl = 0x06C;  // W: 1 = start (ignored while busy: counts in kSendStatus bit 2)
inline constexpr uint32_t kSendStatus = 0x070;// R: bit 0 sending, bit 1 blocked by STOP now, bit 2 start refused; bits 31..16 packets sent
// Receive DMA: link -> SRAM receive buffers, a ring of 8-byte descriptors in SRAM.
inline constexpr uint32_t kRxRing = 0x080;    // W/R: SRAM address of the descriptor ring (8-byte aligned)
inline constexpr uint32_t kRxSize = 0x084;    // W/R: entries (1..4096)
inline constexpr uint32_t kRxBufSize = 0x088; // W/R: bytes per receive buffer
inline constexpr uint32_t kRxPolicy = 0x08C;  // W/R: 0 = back-pressure the link when no buffer is free, 1 = drop and count
inline constexpr uint32_t kRxCtrl = 0x090;    // W/R: 1 = enabled (a disabled receiver back-pressures)
inline constexpr uint32_t kRxTail = 0x094;    // R: descriptors filled (engine), mod 2^32
inline constexpr uint32_t kRxDrops = 0x098;   // R: packets dropped for want of a buffer
inline constexpr uint32_t kRxCrcErrors = 0x09C;  // R: packets received with a bad CRC (delivered, flagged)
// Flow-control timestamps of the outgoing link (send block, issue 14 part 4).
inline constexpr uint32_t kSendStopLo = 0x100;   // R: RTC at the last STOP edge, low word (latches kSendStopHi)
inline constexpr uint32_t kSendStopHi = 0x104;   // R: high word latched by the last kSendStopLo read
inline constexpr uint32_t kSendGoLo = 0x108;     // R: RTC at the last GO edge, low word (latches kSendGoHi)
inline constexpr uint32_t kSendGoHi = 0x10C;     // R: high word latched by the last kSendGoLo read
inline constexpr uint32_t kSendFlags = 0x110;    // R/W1C: sticky kSendWasBlocked, kSendRefused, kSendLate
inline constexpr uint32_t kSendBlocked = 0x114;  // R: oscillator ticks a packet byte was held by STOP, mod 2^32
// Send queue (send block, issue 14 part 5): a ring of 32-byte SendDesc in SRAM, sent back to back.
inline constexpr uint32_t kSqRing = 0x120;    // W/R: SRAM address of the ring (32-byte aligned)
inline constexpr uint32_t kSqSize = 0x124;    // W/R: entries (1..4096; 0 = no queue)
inline constexpr uint32_t kSqHead = 0x128;    // W/R: producer index (firmware), mod 2^32; a write rings the doorbell
inline constexpr uint32_t kSqTail = 0x12C;    // R: descriptors completed (sent or refused), mod 2^32
inline constexpr uint32_t kSqStatus = 0x130;  // R: bit 0 active, bit 1 waiting for a start time; bits 31..16 refused

// ISR bits.
inline constexpr uint32_t kIrqDoorbell = 1u << 0;
inline constexpr uint32_t kIrqTimer0 = 1u << 1;
inline constexpr uint32_t kIrqTimer1 = 1u << 2;
inline constexpr uint32_t kIrqHdmaDone = 1u << 3;  // a host-DMA descriptor completed
inline constexpr uint32_t kIrqSendDone = 1u << 4;  // the send DMA put the packet's last byte on the link
inline constexpr uint32_t kIrqLinkStop = 1u << 5;  // STOP took effect on the outgoing link
inline constexpr uint32_t kIrqLinkGo = 1u << 6;    // GO took effect on the outgoing link
inline constexpr uint32_t kIrqRxDone = 1u << 7;    // a packet is complete in a receive buffer
inline constexpr uint32_t kIrqRxNoBuf = 1u << 8;   // a packet found no free receive buffer
inline constexpr uint32_t kIrqSendQueue = 1u << 12; // send queue: a kSendDescIrq descriptor completed, or the queue drained
inline constexpr uint32_t kIrqSoftware = 0xFFu << 24;  // free for kIsrSet

// Host-DMA descriptor (16 bytes): local (SRAM address), host (host address), length, control.
inline constexpr uint32_t kHdmaToSram = 1u << 0;    // control: host -> SRAM (else SRAM -> host)
inline constexpr uint32_t kHdmaDoneBit = 1u << 31;  // control, written by the engine on completion
inline constexpr uint32_t kHdmaErrBit = 1u << 30;   // control: address outside SRAM or host memory
// Receive descriptor (8 bytes): buffer address, status.
inline constexpr uint32_t kRxOwn = 1u << 31;        // status: the NIC may fill this buffer (firmware sets, engine clears)
inline constexpr uint32_t kRxCrcErr = 1u << 30;     // status: CRC mismatch
inline constexpr uint32_t kRxTrunc = 1u << 29;      // status: packet longer than the buffer; the rest was discarded
inline constexpr uint32_t kRxLenMask = 0x00FFFFFFu; // status: bytes stored (type + payload; no CRC)
// kSendFlags bits (sticky; write 1 to clear).
inline constexpr uint32_t kSendWasBlocked = 1u << 0;  // a packet byte was held by STOP
inline constexpr uint32_t kSendRefused = 1u << 1;     // a start (SEND_CTRL or queue descriptor) was refused
inline constexpr uint32_t kSendLate = 1u << 2;        // a timed descriptor with kSendDescLateOk started after its time
// Send descriptor (32 bytes): addr, length, control, status, start_hi, start_lo, sent_hi, sent_lo.
inline constexpr uint32_t kSendDescSize = 32;
inline constexpr uint32_t kSendDescRouteMask = 0xFFu;  // control: route bytes at the front (not in the CRC)
inline constexpr uint32_t kSendDescTimed = 1u << 8;    // control: the first byte leaves when the RTC reaches start
inline constexpr uint32_t kSendDescLateOk = 1u << 9;   // control: start already past: send at once (kSendLate), not refuse
inline constexpr uint32_t kSendDescIrq = 1u << 10;     // control: raise kIrqSendQueue when this descriptor completes
inline constexpr uint32_t kSendDescDone = 1u << 31;    // status (engine): completed (last byte left, or refused)
inline constexpr uint32_t kSendDescRefused = 1u << 30; // status: refused (bad address/length, or start already past)
inline constexpr uint32_t kSendDescLate = 1u << 29;    // status: sent late (kSendDescLateOk)
}  // namespace nic

}  // namespace sanvp::nic::map
