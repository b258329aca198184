// Route-set test firmware (tb/nic/test_routes.cpp): takes its routes in route sets
// (FW_DEFINE_ROUTE_SET, fw/routes.h) and either reports what it sees in them, or sends test
// packets over chosen routes and receives whatever arrives (its own packets too: a packet sent
// on the U-turn route comes back to the sender). The test writes g_cfg into SRAM before the
// core starts and reads g_result / g_dump after the firmware exits.
#include "fw/nic.h"
#include "fw/routes.h"

namespace nic = fw::nic;

// Room for 16 destinations; the overflow test loads more routes than 192 bytes hold.
FW_DEFINE_ROUTE_SET(16, 192)

extern "C" {
// mode, then arguments (see below). In .data: crt0 does not clear it.
uint32_t g_cfg[16] = {0xFFFFFFFFu};
uint32_t g_result[32] = {0xFFFFFFFFu};
uint8_t g_dump[512] = {0xFF};
}

namespace {

enum Mode : uint32_t { kIdle = 0, kDump = 1, kSendRecv = 2 };
constexpr uint16_t kTestType = 0x0601;

inline uint8_t pay(uint32_t seq, uint32_t i) { return static_cast<uint8_t>(seq * 13u + i * 5u + 1u); }

// The table as the lookups see it: route_nodes(), then per node its count and each route as a
// length byte and the bytes. g_result[0] = route_nodes(), [1] = bytes dumped.
void dump() {
  uint32_t n = 0;
  const uint32_t nodes = fw::route_nodes();
  for (uint32_t d = 0; d < nodes; ++d) {
    const uint32_t c = fw::route_count(d);
    g_dump[n++] = static_cast<uint8_t>(c);
    for (uint32_t k = 0; k < c; ++k) {
      const fw::Route r = fw::route(d, k);
      g_dump[n++] = static_cast<uint8_t>(r.len);
      for (uint32_t i = 0; i < r.len; ++i) g_dump[n++] = r.bytes[i];
    }
  }
  g_result[0] = nodes;
  g_result[1] = n;
}

// g_cfg: [1] destination, [2] first route index, [3] routes to use (one packet on each),
// [4] payload bytes, [5] packets to receive, [6] ticks to wait before sending, [7] give-up
// ticks. Results: [0] route_count(destination), [1] packets sent, [2] good packets received,
// [3] bad packets, [4] stored length of the first, [5] sequence numbers received (bit mask).
alignas(8) nic::RxDesc rx[4];
uint8_t rx_buf[4][256];
uint8_t pkt[256];
void send_recv() {
  const uint32_t dst = g_cfg[1], first = g_cfg[2], routes = g_cfg[3], payload = g_cfg[4], expect = g_cfg[5];
  for (uint32_t i = 0; i < 4; ++i) {
    rx[i].buffer = reinterpret_cast<uintptr_t>(rx_buf[i]);
    rx[i].status = nic::kRxOwn;
  }
  nic::rx_setup(rx, 4, sizeof rx_buf[0], nic::RxPolicy::kBackPressure);
  nic::rx_enable();
  g_result[0] = fw::route_count(dst);
  if (g_cfg[6]) {
    nic::irq_mask(nic::kIrqTimer1);
    nic::timer_arm(1, g_cfg[6]);
    nic::irq_ack(nic::wait());
  }
  nic::irq_mask(nic::kIrqSendDone | nic::kIrqRxDone | nic::kIrqTimer0);
  nic::timer_arm(0, g_cfg[7]);
  uint32_t sent = 0, handled = 0, good = 0, bad = 0, seen = 0;
  bool sending = false;
  while (handled < expect || sent < routes || sending) {
    if (!sending && sent < routes) {
      const fw::Route r = fw::route(dst, first + sent);
      if (!r.bytes) break;  // no such route: the test sees it in the counts
      for (uint32_t i = 0; i < r.len; ++i) pkt[i] = r.bytes[i];
      uint8_t* p = pkt + r.len;
      p[0] = kTestType >> 8;
      p[1] = kTestType & 0xFF;
      p[2] = static_cast<uint8_t>(sent);
      for (uint32_t i = 0; i < payload; ++i) p[3 + i] = pay(sent, i);
      nic::send_start(pkt, r.len + 3 + payload, r.len);
      sending = true;
    }
    const uint32_t ev = nic::wait();
    nic::irq_ack(ev);
    if (ev & nic::kIrqTimer0) break;  // gave up
    if (ev & nic::kIrqSendDone) {
      sending = false;
      ++sent;
    }
    while (handled != nic::rx_tail()) {
      nic::RxDesc& d = rx[handled % 4];
      const uint32_t st = d.status, len = st & nic::kRxLenMask;
      const uint8_t* p = rx_buf[handled % 4];
      bool ok = !(st & (nic::kRxCrcErr | nic::kRxTrunc)) && len == 3 + payload && p[0] == (kTestType >> 8) && p[1] == (kTestType & 0xFF);
      for (uint32_t i = 0; ok && i < payload; ++i) ok = p[3 + i] == pay(p[2], i);
      if (handled == 0) g_result[4] = len;
      if (ok) {
        ++good;
        seen |= 1u << (p[2] & 31);
      } else {
        ++bad;
      }
      d.status = nic::kRxOwn;
      nic::rx_kick();
      ++handled;
    }
  }
  g_result[1] = nic::packets_sent();
  g_result[2] = good;
  g_result[3] = bad;
  g_result[5] = seen;
}

}  // namespace

int main() {
  switch (g_cfg[0]) {
    case kDump: dump(); break;
    case kSendRecv: send_recv(); break;
    case kIdle:
    default:
      nic::irq_mask(0);
      nic::wait();  // sleeps forever: nothing is enabled
  }
  return 0;
}
