// Register-level test firmware for the NIC engines (tb/nic/test_nic.cpp). The test writes
// g_cfg (mode and arguments) into SRAM before the core starts and reads g_result back after
// the firmware exits; the route table comes from the network's mapper as for real firmware.
#include "test_fw.h"

namespace {

enum Mode : uint32_t { kIdle = 0, kTimer = 1, kRtcSet = 2, kHdma = 3, kSender = 4, kReceiver = 5, kIrqMask = 6, kFault = 7 };

// Payload byte i of test packet `seq`.
inline uint8_t pay(uint32_t seq, uint32_t i) { return static_cast<uint8_t>(seq * 31u + i * 7u + (i >> 8)); }

// g_cfg: [1] ticks. Results: rtc before/after (lo), ISR after wake.
void timer_test() {
  nic::irq_mask(nic::kIrqTimer0);
  const uint32_t r0 = static_cast<uint32_t>(nic::rtc());
  nic::timer_arm(0, g_cfg[1]);
  g_result[2] = nic::timer_left(0);
  const uint32_t why = nic::wait();
  const uint32_t r1 = static_cast<uint32_t>(nic::rtc());
  g_result[0] = r0;
  g_result[1] = r1;
  g_result[3] = why;
  nic::irq_ack(why);
  g_result[4] = nic::irq_status();
  g_result[5] = nic::timer_left(0);
  g_result[6] = nic::rtc_khz();
}

// g_cfg: [1], [2] value to set (hi, lo); [3] ticks to sleep. Results: rtc hi/lo after the sleep.
void rtc_set_test() {
  nic::set_rtc((static_cast<uint64_t>(g_cfg[1]) << 32) | g_cfg[2]);
  nic::irq_mask(nic::kIrqTimer1);
  nic::timer_arm(1, g_cfg[3]);
  nic::irq_ack(nic::wait());
  const uint64_t r = nic::rtc();
  g_result[0] = static_cast<uint32_t>(r >> 32);
  g_result[1] = static_cast<uint32_t>(r);
}

// g_cfg: [1] host source, [2] length, [3] host destination. Copies host -> SRAM -> host; results:
// control words of both descriptors, tail after each, and a checksum of the SRAM copy.
alignas(16) nic::HdmaDesc ring[4];
uint8_t dma_buf[2048];
void hdma_test() {
  nic::hdma_setup(ring, 4);
  nic::irq_mask(nic::kIrqHdmaDone);
  ring[0] = {reinterpret_cast<uintptr_t>(dma_buf), g_cfg[1], g_cfg[2], nic::kHdmaToSram};
  nic::hdma_set_head(1);
  nic::irq_ack(nic::wait());
  g_result[0] = ring[0].control;
  g_result[1] = nic::hdma_tail();
  uint32_t sum = 0;
  for (uint32_t i = 0; i < g_cfg[2]; ++i) sum = sum * 33u + dma_buf[i];
  g_result[2] = sum;
  ring[1] = {reinterpret_cast<uintptr_t>(dma_buf), g_cfg[3], g_cfg[2], 0};
  nic::hdma_set_head(2);
  nic::irq_ack(nic::wait());
  g_result[3] = ring[1].control;
  g_result[4] = nic::hdma_tail();
  // A descriptor outside SRAM completes with the error bit and moves nothing.
  ring[2] = {0x00FFFF00u, g_cfg[3], 4096, nic::kHdmaToSram};
  nic::hdma_set_head(3);
  nic::irq_ack(nic::wait());
  g_result[5] = ring[2].control;
}

// g_cfg: [1] destination node, [2] packets, [3] payload bytes, [4] ticks to wait first (so the
// receiver is set up). Sends them back to back; results:
// packets sent, STOP and GO events seen, 'blocked' status seen while sending, starts refused.
uint8_t pkt[2048];
void sender_test() {
  const RouteEntry& r = g_routes[g_cfg[1]];
  const uint32_t n = g_cfg[2], len = g_cfg[3];
  if (g_cfg[4]) {
    nic::irq_mask(nic::kIrqTimer1);
    nic::timer_arm(1, g_cfg[4]);
    nic::irq_ack(nic::wait());
  }
  nic::irq_mask(nic::kIrqSendDone | nic::kIrqLinkStop | nic::kIrqLinkGo);
  uint32_t stops = 0, gos = 0, blocked_seen = 0;
  for (uint32_t s = 0; s < n; ++s) {
    for (uint32_t i = 0; i < r.len; ++i) pkt[i] = r.hops[i];
    uint8_t* p = pkt + r.len;
    p[0] = kTestType >> 8;
    p[1] = kTestType & 0xFF;
    p[2] = static_cast<uint8_t>(s >> 8);
    p[3] = static_cast<uint8_t>(s);
    for (uint32_t i = 0; i < len; ++i) p[4 + i] = pay(s, i);
    nic::send_start(pkt, r.len + 4 + len, r.len);
    while (true) {
      const uint32_t ev = nic::wait();
      nic::irq_ack(ev);
      if (ev & nic::kIrqLinkStop) {
        ++stops;
        if (nic::send_blocked()) ++blocked_seen;
      }
      if (ev & nic::kIrqLinkGo) ++gos;
      if (ev & nic::kIrqSendDone) break;
    }
  }
  g_result[0] = nic::packets_sent();
  g_result[1] = stops;
  g_result[2] = gos;
  g_result[3] = blocked_seen;
  g_result[4] = nic::send_status();
}

// g_cfg: [1] packets expected, [2] buffers, [3] buffer bytes, [4] policy, [5] ticks to wait
// before handing out the buffers, [6] payload bytes sent, [7] give-up ticks. Results: good,
// CRC errors, truncated, bad content, drops, guards intact (1), packets handled, payload bytes
// of the first packet, statuses of the first 8 descriptors (g_result[16..23]).
constexpr uint32_t kGuard = 64;
alignas(8) nic::RxDesc rx[8];
uint8_t rx_area[8 * (2048 + 2 * kGuard)];
void receiver_test() {
  const uint32_t expect = g_cfg[1], nbuf = g_cfg[2], bsz = g_cfg[3], payload = g_cfg[6];
  const uint32_t stride = bsz + 2 * kGuard;
  for (uint32_t i = 0; i < nbuf * stride; ++i) rx_area[i] = 0xA5;
  for (uint32_t i = 0; i < nbuf; ++i) rx[i].buffer = reinterpret_cast<uintptr_t>(rx_area + i * stride + kGuard);
  nic::rx_setup(rx, nbuf, bsz, g_cfg[4] ? nic::RxPolicy::kDrop : nic::RxPolicy::kBackPressure);
  nic::rx_enable();
  nic::irq_mask(nic::kIrqTimer0);
  if (g_cfg[5]) {  // enabled, but no buffer handed out for a while: the policy applies
    nic::timer_arm(0, g_cfg[5]);
    nic::irq_ack(nic::wait());
  }
  for (uint32_t i = 0; i < nbuf; ++i) rx[i].status = nic::kRxOwn;
  nic::rx_kick();
  nic::irq_mask(nic::kIrqRxDone | nic::kIrqTimer0);
  nic::timer_arm(0, g_cfg[7]);
  uint32_t good = 0, crc = 0, trunc = 0, bad = 0, handled = 0;
  while (handled + nic::rx_drops() < expect) {
    const uint32_t ev = nic::wait();
    nic::irq_ack(ev);
    if (ev & nic::kIrqTimer0) break;  // gave up
    while (handled != nic::rx_tail()) {
      nic::RxDesc& d = rx[handled % nbuf];
      const uint32_t st = d.status;
      if (handled < 8) g_result[16 + handled] = st;
      const uint8_t* p = reinterpret_cast<const uint8_t*>(d.buffer);
      const uint32_t len = st & nic::kRxLenMask;
      if (handled == 0) g_result[7] = len;
      if (st & nic::kRxCrcErr) ++crc;
      else if (st & nic::kRxTrunc) ++trunc;
      else {
        const uint32_t seq = (uint32_t(p[2]) << 8) | p[3];
        bool ok = len == 4 + payload && p[0] == (kTestType >> 8) && p[1] == (kTestType & 0xFF);
        for (uint32_t i = 0; ok && i < payload; ++i) ok = p[4 + i] == pay(seq, i);
        if (ok) ++good;
        else ++bad;
      }
      d.status = nic::kRxOwn;
      nic::rx_kick();
      ++handled;
    }
  }
  bool guards = true;
  for (uint32_t b = 0; b < nbuf; ++b)
    for (uint32_t i = 0; i < kGuard; ++i)
      guards = guards && rx_area[b * stride + i] == 0xA5 && rx_area[b * stride + kGuard + bsz + i] == 0xA5;
  g_result[0] = good;
  g_result[1] = crc;
  g_result[2] = trunc;
  g_result[3] = bad;
  g_result[4] = nic::rx_drops();
  g_result[5] = guards;
  g_result[6] = handled;
  g_result[8] = nic::rx_crc_errors();
}

// Masked events do not wake WAIT; software events (ISR_SET) do.
void irq_mask_test() {
  nic::irq_mask(nic::kIrqSoftware);
  nic::timer_arm(0, g_cfg[1]);           // raises kIrqTimer0, which is masked
  nic::timer_arm(1, g_cfg[2]);           // later; the test checks the core slept through it
  nic::irq_mask(nic::kIrqTimer1);
  const uint32_t why = nic::wait();
  g_result[0] = why;
  g_result[1] = nic::irq_status();       // timer 0's bit is pending though masked
  nic::irq_raise(1u << 24);
  nic::irq_mask(1u << 24);
  g_result[2] = nic::wait();             // returns at once: pending and enabled
}

// A read of an unmapped NIC register window: the NIC's core faults with a full report.
__attribute__((noinline)) uint32_t bad_register_read() { return fw::reg(sanvp::nic::map::kNicRegBase + 0x8000); }

}  // namespace

int main() {
  switch (g_cfg[0]) {
    case kTimer: timer_test(); break;
    case kRtcSet: rtc_set_test(); break;
    case kHdma: hdma_test(); break;
    case kSender: sender_test(); break;
    case kReceiver: receiver_test(); break;
    case kIrqMask: irq_mask_test(); break;
    case kFault: g_result[0] = bad_register_read(); break;
    case kIdle:
    default:
      nic::irq_mask(0);
      nic::wait();  // sleeps forever: nothing is enabled
  }
  return 0;
}
