// Firmware HAL of the sanvp NIC: typed access to every NIC register (hw/nic/memory_map.hpp,
// namespace map::nic) and the DMA descriptor formats. docs/nic.md describes the hardware.
//
//   #include "fw/nic.h"
//   fw::nic::irq_mask(fw::nic::kIrqRxDone | fw::nic::kIrqDoorbell);
//   uint32_t why = fw::nic::wait();      // sleeps (no instructions run) until an enabled event
//   fw::nic::irq_ack(why);
//
// All registers are 32-bit and big-endian, like all Lanai memory. Descriptors live in SRAM and
// are plain structs of big-endian words (the core is big-endian, so a uint32_t is one).
#pragma once
#include <stdint.h>

#include "fw/fw.h"
#include "hw/nic/memory_map.hpp"
#include "hw/pci/pci_device_map.hpp"

namespace fw::nic {

using namespace sanvp::nic::map::nic;  // register offsets and bit names

inline volatile uint32_t& nic_reg(uint32_t offset) { return reg(sanvp::nic::map::kNicRegBase + offset); }

// ---- interrupt status, mask and sleep ----
inline uint32_t irq_status() { return nic_reg(kIsr); }
inline void irq_ack(uint32_t bits) { nic_reg(kIsr) = bits; }          // write 1 to clear
inline void irq_mask(uint32_t bits) { nic_reg(kImr) = bits; }         // enabled events
inline uint32_t irq_enabled() { return nic_reg(kImr); }
inline void irq_raise(uint32_t bits) { nic_reg(kIsrSet) = bits; }     // software events
// Sleeps until (ISR & IMR) != 0 and returns it. Returns at once if something is pending.
inline uint32_t wait() { return nic_reg(kWait); }

// ---- real-time clock (ticks of this NIC's own oscillator) and interval timers ----
inline uint64_t rtc() {
  const uint32_t lo = nic_reg(kRtcLo);  // latches the high word
  const uint32_t hi = nic_reg(kRtcHi);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
inline void set_rtc(uint64_t v) {
  nic_reg(kRtcHi) = static_cast<uint32_t>(v >> 32);  // staged
  nic_reg(kRtcLo) = static_cast<uint32_t>(v);        // commits both words at this instant
}
inline uint32_t rtc_khz() { return nic_reg(kRtcFreq); }  // nominal oscillator frequency
// Interval timer i (0 or 1) raises kIrqTimer0/1 after `ticks` oscillator ticks; 0 disarms.
inline void timer_arm(int i, uint32_t ticks) { nic_reg(i ? kTimer1 : kTimer0) = ticks; }
inline uint32_t timer_left(int i) { return nic_reg(i ? kTimer1 : kTimer0); }

// ---- host interface ----
inline uint32_t doorbell() { return nic_reg(kDoorbell); }
inline void host_interrupt(uint32_t value) { nic_reg(kHostIrq) = value; }
inline uint32_t node_id() { return nic_reg(kNodeId); }
inline void publish(uint32_t word) { nic_reg(kMailbox) = word; }      // the host reads it by PIO

// ---- host DMA engine: a ring of descriptors in SRAM ----
struct HdmaDesc {
  uint32_t local;    // SRAM address
  uint32_t host;     // host memory address
  uint32_t length;   // bytes
  uint32_t control;  // kHdmaToSram, and on completion kHdmaDoneBit (| kHdmaErrBit)
};
static_assert(sizeof(HdmaDesc) == 16, "host-DMA descriptors are 16 bytes");
inline void hdma_setup(HdmaDesc* ring, uint32_t entries) {
  nic_reg(kHdmaRing) = reinterpret_cast<uintptr_t>(ring);
  nic_reg(kHdmaSize) = entries;
}
inline void hdma_set_head(uint32_t head) { nic_reg(kHdmaHead) = head; }  // descriptors [tail, head) are queued
inline uint32_t hdma_tail() { return nic_reg(kHdmaTail); }               // descriptors completed
inline bool hdma_busy() { return nic_reg(kHdmaStatus) & 1u; }
inline uint32_t hdma_errors() { return nic_reg(kHdmaStatus) >> 16; }      // descriptors that failed, mod 2^16
// Fills the descriptor at `head` (mod `entries`) and advances `head`; hdma_set_head(head) starts
// what was queued. `bus` is any bus address (below).
inline void hdma_queue(HdmaDesc* ring, uint32_t entries, uint32_t& head, const void* local, uint32_t bus, uint32_t length,
                       uint32_t control) {
  ring[head % entries] = HdmaDesc{reinterpret_cast<uintptr_t>(local), bus, length, control};
  ++head;
}

// ---- PCI peers (docs/nic.md, "Host side") ----
// A descriptor's `host` word is a bus address of the host's PCI bus map: host memory, or any
// other window, e.g. a peripheral device's memory (its base + pcidev::kMemOffset + offset) or its
// doorbell (its base + pcidev::kDoorbell: DMA 4 bytes from an SRAM word to ring it). An address
// no window claims, or a register the target refuses, completes with kHdmaErrBit.
namespace pcidev = sanvp::pcidev_map;

// ---- send DMA: one packet at a time, route bytes first, CRC appended by the engine ----
inline void send_start(const void* packet, uint32_t length, uint32_t route_bytes) {
  nic_reg(kSendAddr) = reinterpret_cast<uintptr_t>(packet);
  nic_reg(kSendLen) = length;
  nic_reg(kSendRoute) = route_bytes;
  nic_reg(kSendCtrl) = 1;
}
inline uint32_t send_status() { return nic_reg(kSendStatus); }
inline bool send_busy() { return send_status() & 1u; }
inline bool send_blocked() { return send_status() & 2u; }   // STOP in force while sending
inline uint32_t packets_sent() { return send_status() >> 16; }

// ---- receive DMA: a ring of descriptors, buffers handed to the NIC with kRxOwn ----
struct RxDesc {
  uint32_t buffer;  // SRAM address of a buffer of rx_setup's buf_bytes
  uint32_t status;  // kRxOwn while the NIC may fill it; then length | kRxCrcErr | kRxTrunc
};
static_assert(sizeof(RxDesc) == 8, "receive descriptors are 8 bytes");
enum class RxPolicy : uint32_t { kBackPressure = 0, kDrop = 1 };
inline void rx_setup(RxDesc* ring, uint32_t entries, uint32_t buf_bytes, RxPolicy policy) {
  nic_reg(kRxRing) = reinterpret_cast<uintptr_t>(ring);
  nic_reg(kRxSize) = entries;
  nic_reg(kRxBufSize) = buf_bytes;
  nic_reg(kRxPolicy) = static_cast<uint32_t>(policy);
}
inline void rx_enable() { nic_reg(kRxCtrl) = 1; }
// After handing buffers back (status = kRxOwn): lets a back-pressured receiver go on.
inline void rx_kick() { nic_reg(kRxCtrl) = 1; }
inline uint32_t rx_tail() { return nic_reg(kRxTail); }       // descriptors filled so far
inline uint32_t rx_drops() { return nic_reg(kRxDrops); }
inline uint32_t rx_crc_errors() { return nic_reg(kRxCrcErrors); }

// ---- RTC adjustment and absolute timers (docs/nic.md, "RTC and timers") ----
// Timers are deadlines in RTC ticks: set_rtc() and rtc_adjust() move their expiry in time (a
// timer whose deadline the RTC jumps over expires at once), so slot timers follow the new time.
inline void rtc_adjust(int32_t ticks) { nic_reg(kRtcAdj) = static_cast<uint32_t>(ticks); }  // RTC += ticks, atomically
// Timer i expires when the RTC reaches `deadline` (at once if it already has).
inline void timer_arm_at(int i, uint64_t deadline) {
  nic_reg(kRtcHi) = static_cast<uint32_t>(deadline >> 32);  // staged
  nic_reg(i ? kTimer1At : kTimer0At) = static_cast<uint32_t>(deadline);
}

// ---- flow-control timestamps of the outgoing link ----
inline uint64_t link_stop_rtc() {  // RTC at the last STOP edge (when kIrqLinkStop was raised)
  const uint32_t lo = nic_reg(kSendStopLo);
  return (static_cast<uint64_t>(nic_reg(kSendStopHi)) << 32) | lo;
}
inline uint64_t link_go_rtc() {    // RTC at the last GO edge (when kIrqLinkGo was raised)
  const uint32_t lo = nic_reg(kSendGoLo);
  return (static_cast<uint64_t>(nic_reg(kSendGoHi)) << 32) | lo;
}
inline uint32_t send_flags() { return nic_reg(kSendFlags); }           // kSendWasBlocked | kSendRefused | kSendLate
inline void send_flags_clear(uint32_t bits) { nic_reg(kSendFlags) = bits; }
inline uint32_t send_blocked_ticks() { return nic_reg(kSendBlocked); }  // oscillator ticks held by STOP, mod 2^32

// ---- send queue: a ring of descriptors sent back to back, optionally at an RTC value ----
struct SendDesc {
  uint32_t addr;      // SRAM address of the packet (route bytes first)
  uint32_t length;    // bytes (route + type + payload; the CRC is appended)
  uint32_t control;   // route bytes (kSendDescRouteMask) | kSendDescTimed | kSendDescLateOk | kSendDescIrq
  uint32_t status;    // engine: kSendDescDone | kSendDescRefused | kSendDescLate
  uint32_t start_hi;  // kSendDescTimed: the first byte leaves when the RTC reaches start
  uint32_t start_lo;
  uint32_t sent_hi;   // engine: RTC when the first byte left
  uint32_t sent_lo;
};
static_assert(sizeof(SendDesc) == kSendDescSize, "send descriptors are 32 bytes");
inline void sq_setup(SendDesc* ring, uint32_t entries) {  // only while the queue is idle
  nic_reg(kSqRing) = reinterpret_cast<uintptr_t>(ring);
  nic_reg(kSqSize) = entries;
}
inline void sq_set_head(uint32_t head) { nic_reg(kSqHead) = head; }  // descriptors [tail, head) are queued
inline uint32_t sq_head() { return nic_reg(kSqHead); }
inline uint32_t sq_tail() { return nic_reg(kSqTail); }               // descriptors completed (sent or refused)
inline uint32_t sq_status() { return nic_reg(kSqStatus); }
inline void send_desc(SendDesc& d, const void* packet, uint32_t length, uint32_t route_bytes, uint32_t flags = 0) {
  d.addr = reinterpret_cast<uintptr_t>(packet);
  d.length = length;
  d.control = (route_bytes & kSendDescRouteMask) | flags;
  d.status = 0;
}
inline void send_desc_at(SendDesc& d, const void* packet, uint32_t length, uint32_t route_bytes, uint64_t start, uint32_t flags = 0) {
  send_desc(d, packet, length, route_bytes, flags | kSendDescTimed);
  d.start_hi = static_cast<uint32_t>(start >> 32);
  d.start_lo = static_cast<uint32_t>(start);
}

}  // namespace fw::nic
