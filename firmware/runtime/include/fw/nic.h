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

}  // namespace fw::nic
