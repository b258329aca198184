// TDMA clock-synchronization firmware (tdma-realtime-myrinet.txt, 5.2): one master sends its RTC
// timestamp to every slave once per sync period, as ordinary TDMA traffic in the slots the
// scheduler reserved for the sync streams; each slave sets its RTC to the timestamp plus the known
// transmission time. Protocol firmware: it keeps time only with its own RTC and timers
// (fw::time_ns() is deleted); probes let the platform measure the clocks against global time.
//
// Master: slot n begins when its RTC reaches start + n * slot_ticks. Each sync packet is a timed
// send at its slot's boundary, so its first byte leaves exactly when the RTC reads the timestamp
// it carries, whatever the firmware's own latency (the thesis's master read its RTC and then
// sent, adding its software latency to the error). The master never changes its RTC.
//
// Slave: sleeps until a packet has arrived and reads its RTC first thing on waking, so the time
// from the packet's last byte to that read is a fixed number of core cycles (kRxReadCycles).
// It then moves its RTC by (timestamp + tx_ticks) - (RTC read): an adjustment relative to the
// read, so the instructions between the read and the write cost nothing.
#include "firmware/tdma/tdma_proto.h"
#include "fw/hostif.h"
#include "fw/nic.h"
#include "fw/routes.h"

using namespace sanvp::tdma_abi;
namespace nic = fw::nic;

// Routes from the platform's mapper: the master's packets take the primary route to each slave.
FW_DEFINE_ROUTE_SET(1024, 16384)

namespace {

constexpr uint32_t kRxN = 4;    // receive buffers (one sync packet per period arrives)
constexpr uint32_t kSendN = 4;  // send buffers and queue entries (at most two in use)
constexpr uint32_t kBufBytes = 64;

alignas(16) volatile uint32_t hif[kHifBytes / 4];
alignas(32) nic::SendDesc sq[kSendN];
alignas(8) nic::RxDesc rx_ring[kRxN];
alignas(16) nic::HdmaDesc hdma_ring[2];
alignas(16) uint32_t done_block[kDoneWords];
alignas(4) uint8_t send_buf[kSendN][kBufBytes];
alignas(4) uint8_t rx_mem[kRxN][kBufBytes];

struct Config {
  uint32_t role, slot_ticks, period, periods, tx_ticks, apply, done_host, sends;
  uint64_t start;
};
Config cfg;

uint32_t sq_head = 0, sq_checked = 0, rx_done = 0;
uint32_t sent = 0, received = 0, applied = 0, refused = 0;

void put32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

uint32_t get32(const uint8_t* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) | (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

uint32_t table_pos(uint32_t j) { return hif[kHifTable / 4 + 2 * j]; }
uint32_t table_node(uint32_t j) { return hif[kHifTable / 4 + 2 * j + 1]; }

[[noreturn]] void finish(uint32_t error) {
  done_block[0] = kDoneMagic;
  done_block[kDoneError] = error;
  done_block[kDoneSent] = sent;
  done_block[kDoneReceived] = received;
  done_block[kDoneApplied] = applied;
  done_block[kDoneRefused] = refused;
  fw::hostif::post_completion(hdma_ring, done_block, sizeof(done_block), cfg.done_host);
  fw::hostif::drain_receiver(rx_ring, kRxN, rx_done);
}

// ---- master ----

// Queues the sync packet of slot n to `node`, leaving when the RTC reaches `at` and carrying `at`.
bool queue_send(uint32_t node, uint32_t n, uint64_t at) {
  const fw::Route r = fw::route(node);
  if (!r.bytes || r.len + kPayload > kBufBytes) return false;
  const uint32_t k = sq_head & (kSendN - 1);
  uint8_t* p = send_buf[k];
  for (uint32_t i = 0; i < r.len; ++i) p[i] = r.bytes[i];
  p += r.len;
  p[0] = static_cast<uint8_t>(kPacketType >> 8);
  p[1] = static_cast<uint8_t>(kPacketType);
  put32(p + 2, n);
  put32(p + 6, static_cast<uint32_t>(at >> 32));
  put32(p + 10, static_cast<uint32_t>(at));
  nic::send_desc_at(sq[k], send_buf[k], r.len + kPayload, r.len, at);
  nic::sq_set_head(++sq_head);
  ++sent;
  return true;
}

void count_refusals() {
  for (const uint32_t tail = nic::sq_tail(); sq_checked != tail; ++sq_checked) {
    const nic::SendDesc& d = sq[sq_checked & (kSendN - 1)];
    if (d.status & nic::kSendDescRefused) {
      ++refused;
      fw::probe(kProbeRefused, d.start_lo);
    }
  }
}

void wait_until(uint64_t deadline) {
  nic::timer_arm_at(0, deadline);
  while (nic::rtc() < deadline) nic::irq_ack(nic::wait());
}

// Send i of the run (sends per period S): slot (i / S) * P + pos(i mod S). One division per
// 30 us slot is cheap; the deadline is computed from the previous one to avoid a 64-bit multiply.
[[noreturn]] void run_master() {
  const uint32_t total = cfg.periods * cfg.sends;
  uint32_t n = table_pos(0), j = 0, base = 0;
  uint64_t deadline = cfg.start + static_cast<uint64_t>(n) * cfg.slot_ticks;
  if (deadline <= nic::rtc()) finish(kErrStartPast);
  if (!queue_send(table_node(0), n, deadline)) finish(kErrNoRoute);
  nic::irq_mask(nic::kIrqTimer0 | nic::kIrqSendQueue);  // boundaries; the queue drained (at the end)
  for (uint32_t i = 0; i < total; ++i) {
    wait_until(deadline);
    fw::probe(kProbeSlot, n);
    if (i + 1 < total) {
      if (++j == cfg.sends) j = 0, base += cfg.period;
      const uint32_t next = base + table_pos(j);
      deadline += static_cast<uint64_t>(next - n) * cfg.slot_ticks;
      n = next;
      if (!queue_send(table_node(j), n, deadline)) finish(kErrNoRoute);
    }
    count_refusals();
  }
  while (nic::sq_tail() != sq_head) nic::irq_ack(nic::wait());  // until the last packet has left
  count_refusals();
  finish(kErrNone);
}

// ---- slave ----

// The packet in `buf` carries slot n and the master's RTC at its start; `r0` is this NIC's RTC
// read on waking for it (only the first packet after a wake-up has a fresh one).
void take_packet(const uint8_t* buf, uint32_t status, uint64_t r0, bool fresh) {
  if ((status & nic::kRxCrcErr) || (status & nic::kRxLenMask) < kPayload) return;
  if (((static_cast<uint32_t>(buf[0]) << 8) | buf[1]) != kPacketType) return;
  const uint32_t n = get32(buf + 2);
  const uint64_t ts = (static_cast<uint64_t>(get32(buf + 6)) << 32) | get32(buf + 10);
  ++received;
  fw::probe(kProbeBefore, n);
  if (!fresh || applied >= cfg.apply) return;
  const int64_t delta = static_cast<int64_t>(ts + cfg.tx_ticks - r0);
  if (delta >= -0x7FFFFFFFll && delta <= 0x7FFFFFFFll) {
    nic::rtc_adjust(static_cast<int32_t>(delta));  // atomic: the time since the read does not matter
  } else {
    nic::set_rtc(ts + cfg.tx_ticks + (nic::rtc() - r0));  // far off (first sync): one more tick of error
  }
  ++applied;
  fw::probe(kProbeAfter, n + 1);
}

[[noreturn]] void run_slave() {
  nic::irq_mask(nic::kIrqRxDone);
  while (received < cfg.periods) {
    nic::wait();
    const uint64_t r0 = nic::rtc();  // first thing after waking: kRxReadCycles after the packet's end
    nic::irq_ack(nic::kIrqRxDone);
    bool fresh = true;
    for (const uint32_t tail = nic::rx_tail(); rx_done != tail; ++rx_done) {
      nic::RxDesc& d = rx_ring[rx_done & (kRxN - 1)];
      take_packet(rx_mem[rx_done & (kRxN - 1)], d.status, r0, fresh);
      fresh = false;
      d.status = nic::kRxOwn;
    }
    nic::rx_kick();
  }
  finish(kErrNone);
}

bool read_config() {
  cfg.role = hif[kHifRole / 4];
  cfg.slot_ticks = hif[kHifSlotTicks / 4];
  cfg.period = hif[kHifPeriod / 4];
  cfg.periods = hif[kHifPeriods / 4];
  cfg.start = (static_cast<uint64_t>(hif[kHifStartHi / 4]) << 32) | hif[kHifStartLo / 4];
  cfg.tx_ticks = hif[kHifTxTicks / 4];
  cfg.apply = hif[kHifApply / 4];
  cfg.done_host = hif[kHifDoneHost / 4];
  cfg.sends = hif[kHifSends / 4];
  if (cfg.periods == 0) return false;
  if (cfg.role == kRoleSlave) return true;
  if (cfg.role != kRoleMaster || cfg.slot_ticks == 0 || cfg.sends == 0 || cfg.sends > kMaxSends) return false;
  for (uint32_t j = 0; j < cfg.sends; ++j)
    if (table_pos(j) >= cfg.period || (j > 0 && table_pos(j) <= table_pos(j - 1))) return false;
  return true;
}

}  // namespace

int main() {
  hif[0] = kHifMagic;
  hif[kHifVersion / 4] = kVersion;
  hif[kHifMaxSends / 4] = kMaxSends;
  nic::hdma_setup(hdma_ring, 2);
  nic::sq_setup(sq, kSendN);
  fw::hostif::publish_and_wait(hif, kHifGo / 4);
  if (!read_config()) finish(kErrConfig);
  for (uint32_t i = 0; i < kRxN; ++i) {
    rx_ring[i].buffer = reinterpret_cast<uintptr_t>(rx_mem[i]);
    rx_ring[i].status = nic::kRxOwn;
  }
  // Dropping (not back-pressuring) when short of buffers: a receiver must never hold the link.
  nic::rx_setup(rx_ring, kRxN, kBufBytes, nic::RxPolicy::kDrop);
  nic::rx_enable();
  nic::irq_ack(0xFFFFFFFFu);
  if (cfg.role == kRoleMaster) run_master();
  run_slave();
}
