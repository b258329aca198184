// GRIM firmware for the sanvp NIC (grim-message-layer.txt): reliable, in-order messages per
// logical channel over an unreliable network, with optimistic NI-based flow control. The host
// side is platform/grim; the contract is grim_proto.h; grim_fw.h lists the parts.
//
// Event loop: sleep in WAIT until the doorbell, a host-DMA completion, a packet sent or
// received, or a timer; run the handlers that event can unblock. Host DMA of the next fragment,
// the link and the receive DMA run concurrently, so large messages are pipelined fragment by
// fragment. The NIC core is slow (66 MHz, no multiplier): the hot paths use word accesses,
// masks and shifts, no multiply or divide.
#include "firmware/grim/grim_fw.h"
#include "fw/routes.h"

// Written by the network's mapper (the platform) into SRAM before the core starts.
FW_DEFINE_ROUTE_TABLE()

namespace grimfw {

Config cfg;
uint32_t my_node = 0;
uint32_t work = 0;
alignas(16) volatile uint32_t hif[kHifBytes / 4];
Endpoint eps[kMaxEndpoints];
uint32_t ep_open = 1, ep_closed = 0;
uint8_t chan_owner[kChannels];

// Devices that wrote open = 1 into their blocks: checked (channels owned by nobody else, a
// completion queue) and opened, or refused (state kEpRefused, open cleared: it may try again).
void open_endpoints() {
  uint32_t taken = 0;
  for (uint32_t m = ep_open; m; m &= m - 1) taken |= eps[__builtin_ctz(m)].chans;
  for (uint32_t e = 1; e < kMaxEndpoints; ++e) {
    volatile uint32_t* b = &hif[ep_block(e) / 4];
    if (!((ep_closed >> e) & 1) || !b[kEpOpenWord / 4]) continue;
    const uint32_t ch = b[kEpChannels / 4], entries = b[kEpCqEntries / 4];
    if (ch == 0 || ch >= (1u << kChannels) || (ch & taken) || entries == 0 || entries > (1u << 20)) {
      b[kEpOpenWord / 4] = 0;
      b[kEpState / 4] = kEpRefused;
      continue;
    }
    Endpoint& ep = eps[e];
    ep.sq = &b[kEpSq / 4];
    ep.rq = &b[kEpRq / 4];
    ep.sq_prod = &b[kEpSqProd / 4];
    ep.rq_prod = &b[kEpRqProd / 4];
    ep.chans = ch;
    ep.cq_host = ep.cq_next = b[kEpCq / 4];
    ep.cq_end = ep.cq_host + (entries << 5);  // 32-byte entries
    ep.bell = b[kEpBell / 4];
    ep.cq_what = kActCq;
    allow_streams(e);
    for (uint32_t c = 0; c < kChannels; ++c)
      if ((ch >> c) & 1) chan_owner[c] = static_cast<uint8_t>(e);
    taken |= ch;
    ep_closed &= ~(1u << e);
    ep_open |= 1u << e;
    b[kEpState / 4] = kEpOpen;
  }
}

namespace {

constexpr uint32_t kEvents = nic::kIrqDoorbell | nic::kIrqHdmaDone | nic::kIrqSendDone | nic::kIrqRxDone | nic::kIrqTimer0 |
                             nic::kIrqTimer1;
constexpr uint32_t kBookkeeping = nic::kIrqSendDone | nic::kIrqTimer0 | nic::kIrqTimer1;  // events handled after delivery

uint32_t pick(uint32_t off, uint32_t dflt, uint32_t lo, uint32_t hi) {
  const uint32_t v = hif[off / 4];
  return v == 0 ? dflt : v < lo ? lo : v > hi ? hi : v;
}

uint32_t floor_pow2(uint32_t v) { return 1u << (31 - __builtin_clz(v)); }

// The host's settings (0 = default), clamped to what the firmware can hold. Runs once: the
// multiplies and divides converting us to RTC ticks are off the hot path.
void configure() {
  cfg.mtu = pick(kHifMtu, kDefaultMtu, 1, kMaxMtu);
  const uint32_t khz = nic::rtc_khz();
  cfg.rto = pick(kHifRtoUs, kDefaultRtoUs, 1, 10000000) * khz / 1000;
  cfg.backoff = pick(kHifBackoffUs, kDefaultBackoffUs, 1, 10000000) * khz / 1000;
  if (cfg.rto < 16) cfg.rto = 16;
  if (cfg.backoff == 0) cfg.backoff = 1;
  cfg.window = floor_pow2(pick(kHifWindow, kDefaultWindow, 2, kMaxWindow));
  cfg.pool = pick(kHifPool, kDefaultPool, 1, kMaxPool);
  cfg.send_bufs = pick(kHifSendBuffers, kDefaultSendBuffers, 1, kMaxSendBuffers);
  cfg.ring = cfg.mtu > 8192 ? 4 : 8;  // large fragments: fewer landing slots, SRAM is 1 MiB
}

// Endpoint 0, the host: the HIF's rings, its completion queue in host memory, the channels it
// was given (all by default); which device endpoints may open later.
void host_endpoint() {
  Endpoint& ep = eps[0];
  ep.sq = &hif[kHifSq / 4];
  ep.rq = &hif[kHifRq / 4];
  ep.sq_prod = &hif[kHifSqProd / 4];
  ep.rq_prod = &hif[kHifRqProd / 4];
  const uint32_t ch = hif[kHifChannels / 4] & ((1u << kChannels) - 1);
  ep.chans = ch ? ch : (1u << kChannels) - 1;
  for (uint32_t c = 0; c < kChannels; ++c) chan_owner[c] = (ep.chans >> c) & 1 ? 0 : kNone;
  ep.cq_host = ep.cq_next = hif[kHifCqHost / 4];
  const uint32_t entries = hif[kHifCqEntries / 4];
  ep.cq_end = ep.cq_host + (entries ? entries : 1) * kCqEntryBytes;  // once: the core has no multiplier
  ep.cq_what = hif[kHifIrq / 4] ? kActCq | kActLast : kActCq;          // | kActLast: interrupt the host after each entry
  const uint32_t n = hif[kHifEndpoints / 4];
  ep_closed = ((1u << (n < kMaxEndpoints ? n : kMaxEndpoints)) - 1) & ~1u;
}

void alloc_send_buffers() {
  for (uint32_t b = 0; b < cfg.send_bufs; ++b) {
    sbuf[b].mem = static_cast<uint8_t*>(malloc(kRoutePad + kDataHeader + cfg.mtu));
    if (!sbuf[b].mem) {
      hif[kHifStats / 4 + kStatError] = kErrSram;
      printf("grim_fw: out of SRAM for %u send buffers of mtu %u\n", static_cast<unsigned>(cfg.send_bufs),
             static_cast<unsigned>(cfg.mtu));
      exit(2);
    }
    sbuf[b].next_free = b + 1 < cfg.send_bufs ? static_cast<uint8_t>(b + 1) : kNone;
  }
  hif[kHifStats / 4 + kStatSendFree] = cfg.send_bufs;
}

void start() {
  my_node = nic::node_id();
  hif[0] = kHifMagic;
  hif[kHifVersion / 4] = kVersion;
  hif[kHifSqEntries / 4] = kSqEntries;
  hif[kHifRqEntries / 4] = kRqEntries;
  nic::irq_mask(kEvents);
  nic::publish(reinterpret_cast<uintptr_t>(hif));
  while (!hif[kHifGo / 4]) nic::irq_ack(nic::wait());
  configure();
  host_endpoint();
  hdma_init();
  alloc_send_buffers();
  send_init();
  recv_init();
}

}  // namespace
}  // namespace grimfw

int main() {
  using namespace grimfw;
  start();
  uint32_t ev = nic::kIrqDoorbell;  // the host may have posted before go
  bool hdma_irq = true;              // kIrqHdmaDone enabled (see hdma_waking)
  // Order: what starts a DMA or puts a packet on the link first (the latency path: a new send
  // starts its load, a loaded fragment goes out, an accepted packet is delivered), bookkeeping
  // last.
  while (true) {
    if (ev & nic::kIrqDoorbell) intake_host_sends();
    if (ev & nic::kIrqHdmaDone) hdma_completions();
    if (ev & nic::kIrqRxDone) handle_received();
    if (work & kWorkDeliver) deliver();
    // The rest in one test when none of it has work (a doorbell or a load's completion: the
    // next event, e.g. that load's completion, is then taken without ~40 instructions of tests).
    if ((ev & kBookkeeping) || (work & (kWorkCtrl | kWorkLink | kWorkLoad | kWorkAck))) {
      if (ev & nic::kIrqSendDone) send_queue_completions();
      if (ev & (nic::kIrqTimer0 | nic::kIrqTimer1)) {
        if (ev & nic::kIrqTimer0) on_timer();
        if (ev & nic::kIrqTimer1) on_ack_timer();
      }
      if (work & kWorkCtrl) flush_control();
      if (work & kWorkLink) schedule_link();
      if (work & kWorkLoad) load_fragments();
      // Piggy-backed ACKs not needed yet are taken when a packet of ours has just left and no
      // packet waits: the peer's answer is at least a round trip away, while after a delivery
      // the host's next send may be a few microseconds away.
      if ((work & kWorkAck) || ((ev & nic::kIrqSendDone) && acks_in.any() && !(nic::irq_status() & nic::kIrqRxDone))) take_acks();
    }
    // (A device's doorbell waiting for room counts in hdma_waking: it keeps kIrqHdmaDone on.)
    if ((hdma_waking != 0) != hdma_irq) {
      hdma_irq = !hdma_irq;
      if (hdma_irq) {  // take the completions that came in masked now, not in a pass of their own
        nic::irq_ack(nic::kIrqHdmaDone);
        hdma_completions();
      }
      nic::irq_mask(hdma_irq ? kEvents : kEvents & ~nic::kIrqHdmaDone);
    }
    ev = nic::wait();
    nic::irq_ack(ev);
  }
}
