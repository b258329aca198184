// Test firmware for the send queue, timed sends, flow-control timestamps and RTC semantics
// (tb/nic/test_sendq.cpp). As tb/nic/fw/engines.cpp: the test writes g_cfg before the core
// starts and reads g_result after the firmware exits.
#include "test_fw.h"

namespace {

enum Mode : uint32_t { kIdle = 0, kRecv = 1, kStopGo = 2, kQueue = 3, kTimed = 4, kLate = 5, kRtcTimers = 6, kTimer = 7 };
constexpr uint32_t kMaxPkt = 1100;

inline uint8_t pay(uint32_t seq, uint32_t i) { return static_cast<uint8_t>(seq * 31u + i * 7u + (i >> 8)); }

void sleep_ticks(uint32_t ticks) {
  if (!ticks) return;
  const uint32_t old = nic::irq_enabled();
  nic::irq_mask(nic::kIrqTimer1);
  nic::timer_arm(1, ticks);
  nic::irq_ack(nic::wait() & nic::kIrqTimer1);
  nic::irq_mask(old);
}

void put64(int i, uint64_t v) {
  g_result[i] = static_cast<uint32_t>(v >> 32);
  g_result[i + 1] = static_cast<uint32_t>(v);
}

// Packet `seq` to `dest` with `len` payload bytes at `p`; returns its length (route bytes first).
uint8_t pkts[20][kMaxPkt + 40];
uint32_t build(uint32_t dest, uint32_t seq, uint32_t len) {
  const RouteEntry& r = g_routes[dest];
  uint8_t* p = pkts[seq];
  for (uint32_t i = 0; i < r.len; ++i) p[i] = r.hops[i];
  uint8_t* q = p + r.len;
  q[0] = kTestType >> 8;
  q[1] = kTestType & 0xFF;
  q[2] = static_cast<uint8_t>(seq >> 8);
  q[3] = static_cast<uint8_t>(seq);
  for (uint32_t i = 0; i < len; ++i) q[4 + i] = pay(seq, i);
  return r.len + 4 + len;
}
uint32_t route_len(uint32_t dest) { return g_routes[dest].len; }

// g_cfg: [1] packets expected, [2] ticks before the buffers are handed out, [3] give-up ticks.
// 24 buffers of 1280 B, never reused. Results: [0] good, [1] bad, [2] handled.
alignas(8) nic::RxDesc rx[24];
uint8_t rx_area[24][1280];
void recv_test() {
  for (uint32_t i = 0; i < 24; ++i) rx[i].buffer = reinterpret_cast<uintptr_t>(rx_area[i]);
  nic::rx_setup(rx, 24, 1280, nic::RxPolicy::kBackPressure);
  nic::rx_enable();
  sleep_ticks(g_cfg[2]);
  for (uint32_t i = 0; i < 24; ++i) rx[i].status = nic::kRxOwn;
  nic::rx_kick();
  nic::irq_mask(nic::kIrqRxDone | nic::kIrqTimer0);
  nic::timer_arm(0, g_cfg[3]);
  uint32_t good = 0, bad = 0, handled = 0;
  while (handled < g_cfg[1]) {
    const uint32_t ev = nic::wait();
    nic::irq_ack(ev);
    if (ev & nic::kIrqTimer0) break;
    while (handled != nic::rx_tail() && handled < 24) {
      const nic::RxDesc& d = rx[handled];
      const uint8_t* p = reinterpret_cast<const uint8_t*>(d.buffer);
      const uint32_t len = d.status & nic::kRxLenMask;
      const uint32_t seq = (uint32_t(p[2]) << 8) | p[3];
      bool ok = !(d.status & (nic::kRxCrcErr | nic::kRxTrunc)) && len >= 4 && p[0] == (kTestType >> 8);
      for (uint32_t i = 0; ok && i + 4 < len; ++i) ok = p[4 + i] == pay(seq, i);
      if (ok) ++good;
      else ++bad;
      ++handled;
    }
  }
  g_result[0] = good;
  g_result[1] = bad;
  g_result[2] = handled;
}

// g_cfg: [1] destination, [2] packets, [3] payload, [4] ticks to wait first. Sends with the
// single-packet registers, counting STOP/GO. Results: [0] STOP wakes, [1] GO wakes, [2..3] last
// STOP RTC, [4..5] last GO RTC, [6] flags, [7] flags after clearing, [8] blocked ticks, [9] sent.
void stopgo_test() {
  const uint32_t dest = g_cfg[1], n = g_cfg[2];
  sleep_ticks(g_cfg[4]);
  nic::irq_mask(nic::kIrqSendDone | nic::kIrqLinkStop | nic::kIrqLinkGo);
  uint32_t stops = 0, gos = 0;
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t len = build(dest, s % 20, g_cfg[3]);
    nic::send_start(pkts[s % 20], len, route_len(dest));
    while (true) {
      const uint32_t ev = nic::wait();
      nic::irq_ack(ev);
      if (ev & nic::kIrqLinkStop) ++stops;
      if (ev & nic::kIrqLinkGo) ++gos;
      if (ev & nic::kIrqSendDone) break;
    }
  }
  g_result[0] = stops;
  g_result[1] = gos;
  put64(2, nic::link_stop_rtc());
  put64(4, nic::link_go_rtc());
  g_result[6] = nic::send_flags();
  nic::send_flags_clear(nic::kSendWasBlocked);
  g_result[7] = nic::send_flags();
  g_result[8] = nic::send_blocked_ticks();
  g_result[9] = nic::packets_sent();
}

alignas(32) nic::SendDesc sq[32];

// Waits until the queue has completed `n` descriptors (kIrqSendQueue when it drains).
uint32_t wait_queue(uint32_t n) {
  nic::irq_mask(nic::kIrqSendQueue);
  uint32_t irqs = 0;
  while (nic::sq_tail() != n) {
    const uint32_t ev = nic::wait();
    nic::irq_ack(ev);
    ++irqs;
  }
  return irqs;
}

// g_cfg: [1] destination, [2] descriptors, [3] base payload (packet k: base + 8k), [4] ticks to
// wait first. Posts them all with one doorbell. Results: [0] tail, [1] SQ_STATUS, [2] flags,
// [3] packets sent, [4] queue interrupts, [8 + k] status of descriptor k.
void queue_test() {
  const uint32_t dest = g_cfg[1], n = g_cfg[2];
  sleep_ticks(g_cfg[4]);
  nic::sq_setup(sq, 16);
  for (uint32_t k = 0; k < n; ++k) nic::send_desc(sq[k % 16], pkts[k], build(dest, k, g_cfg[3] + 8 * k), route_len(dest));
  nic::sq_set_head(n);
  g_result[4] = wait_queue(n);
  g_result[0] = nic::sq_tail();
  g_result[1] = nic::sq_status();
  g_result[2] = nic::send_flags();
  g_result[3] = nic::packets_sent();
  for (uint32_t k = 0; k < n && k < 16; ++k) g_result[8 + k] = sq[k].status;
}

// g_cfg: [1] destination, [2] payload, [3] start of descriptor 0 in ticks from now, [4] start of
// descriptor 1 from now, [5] RTC_ADJ applied once descriptor 0 has completed, [6] ticks to wait
// first. Results: [0..1] T0, [2..3] T1, [4] status 0, [5] status 1, [6..7] sent RTC 0, [8..9]
// sent RTC 1, [10] flags.
void timed_test() {
  const uint32_t dest = g_cfg[1];
  sleep_ticks(g_cfg[6]);
  nic::sq_setup(sq, 16);
  const uint64_t now = nic::rtc();
  const uint64_t t0 = now + g_cfg[3], t1 = now + g_cfg[4];
  nic::send_desc_at(sq[0], pkts[0], build(dest, 0, g_cfg[2]), route_len(dest), t0, nic::kSendDescIrq);
  nic::send_desc_at(sq[1], pkts[1], build(dest, 1, g_cfg[2]), route_len(dest), t1);
  nic::sq_set_head(2);
  wait_queue(1);
  nic::rtc_adjust(static_cast<int32_t>(g_cfg[5]));
  wait_queue(2);
  put64(0, t0);
  put64(2, t1);
  g_result[4] = sq[0].status;
  g_result[5] = sq[1].status;
  g_result[6] = sq[0].sent_hi;
  g_result[7] = sq[0].sent_lo;
  g_result[8] = sq[1].sent_hi;
  g_result[9] = sq[1].sent_lo;
  g_result[10] = nic::send_flags();
}

// g_cfg: [1] destination, [2] payload of the first (long) packet, [3] start offset of the late
// descriptors, [4] start offset of the last (on time), [5] ticks to wait first. Descriptor 0
// untimed; 1 timed, already past when the link is free: refused; 2 the same with kSendDescLateOk:
// sent late; 3 timed in the future: on time. Then a SEND_CTRL start while the queue waits is
// refused. Results: [0..3] statuses, [4] flags, [5] flags after clearing, [6] SQ_STATUS,
// [7] SEND_STATUS, [8] tail, [9..10] T3, [11..12] sent RTC of 3, [13] SEND_STATUS after the
// refused single start (while descriptor 3 waits), [14] flags then.
void late_test() {
  const uint32_t dest = g_cfg[1];
  sleep_ticks(g_cfg[5]);
  nic::sq_setup(sq, 16);
  const uint64_t now = nic::rtc();
  nic::send_desc(sq[0], pkts[0], build(dest, 0, g_cfg[2]), route_len(dest));
  nic::send_desc_at(sq[1], pkts[1], build(dest, 1, 16), route_len(dest), now + g_cfg[3]);
  nic::send_desc_at(sq[2], pkts[2], build(dest, 2, 16), route_len(dest), now + g_cfg[3], nic::kSendDescLateOk);
  const uint64_t t3 = now + g_cfg[4];
  nic::send_desc_at(sq[3], pkts[3], build(dest, 3, 16), route_len(dest), t3);
  nic::sq_set_head(4);
  nic::irq_mask(nic::kIrqSendDone);
  while (nic::packets_sent() < 2) nic::irq_ack(nic::wait());  // descriptor 3 now waits for t3
  const uint32_t len = build(dest, 4, 16);
  nic::send_start(pkts[4], len, route_len(dest));  // refused: the queue has work
  g_result[13] = nic::send_status();
  g_result[14] = nic::send_flags();
  wait_queue(4);
  for (int k = 0; k < 4; ++k) g_result[k] = sq[k].status;
  g_result[4] = nic::send_flags();
  nic::send_flags_clear(nic::kSendRefused | nic::kSendLate);
  g_result[5] = nic::send_flags();
  g_result[6] = nic::sq_status();
  g_result[7] = nic::send_status();
  g_result[8] = nic::sq_tail();
  put64(9, t3);
  g_result[11] = sq[3].sent_hi;
  g_result[12] = sq[3].sent_lo;
}

// g_cfg: [1] timer 0 relative ticks, [2] RTC_ADJ, [3] timer 1 deadline from the RTC after the
// adjustment, [4] RTC_LO/HI step (set_rtc(rtc() + step)), [5] timer 0 deadline jumped over.
// Results: [0..1] D1, [2] why (first wake), [3] why (second wake), [4] TIMER0 left after the
// adjustment, [5] timer 1 left after the write, [6] why (jumped-over deadline), [7] TIMER0_AT
// read while armed, [8] after expiry.
void rtc_timers_test() {
  nic::irq_mask(nic::kIrqTimer0 | nic::kIrqTimer1);
  nic::timer_arm(0, g_cfg[1]);
  nic::rtc_adjust(static_cast<int32_t>(g_cfg[2]));
  g_result[4] = nic::timer_left(0);
  const uint64_t d1 = nic::rtc() + g_cfg[3];
  nic::timer_arm_at(1, d1);
  nic::set_rtc(nic::rtc() + g_cfg[4]);
  g_result[5] = nic::timer_left(1);
  put64(0, d1);
  uint32_t why = nic::wait();
  nic::irq_ack(why);
  g_result[2] = why;
  why = nic::wait();
  nic::irq_ack(why);
  g_result[3] = why;
  // A deadline the RTC jumps over expires at the write.
  nic::irq_mask(nic::kIrqTimer0);
  const uint64_t d0 = nic::rtc() + g_cfg[5];
  nic::timer_arm_at(0, d0);
  g_result[7] = nic::nic_reg(nic::kTimer0At);
  nic::set_rtc(d0 + 100);
  why = nic::wait();
  nic::irq_ack(why);
  g_result[6] = why;
  g_result[8] = nic::nic_reg(nic::kTimer0At);
}

// g_cfg: [1] ticks. Results: [0] RTC_FREQ, [1] why.
void timer_test() {
  nic::irq_mask(nic::kIrqTimer0);
  nic::timer_arm(0, g_cfg[1]);
  const uint32_t why = nic::wait();
  nic::irq_ack(why);
  g_result[0] = nic::rtc_khz();
  g_result[1] = why;
}

}  // namespace

int main() {
  switch (g_cfg[0]) {
    case kRecv: recv_test(); break;
    case kStopGo: stopgo_test(); break;
    case kQueue: queue_test(); break;
    case kTimed: timed_test(); break;
    case kLate: late_test(); break;
    case kRtcTimers: rtc_timers_test(); break;
    case kTimer: timer_test(); break;
    case kIdle:
    default:
      nic::irq_mask(0);
      nic::wait();
  }
  return 0;
}
