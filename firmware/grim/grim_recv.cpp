// GRIM receive side.
//
// The receive ring is posted with buffers the firmware owns; a second set, the pool, holds
// accepted packets until they are in host memory. A good in-sequence data packet is accepted
// by swapping a free pool buffer into its ring slot; with the pool empty the firmware keeps the
// header fields it needs (source, channel, sequence, epoch), answers NACK and recycles the
// buffer. (The receive DMA's own drop policy would keep nothing, so the ring back-pressures and
// the firmware never lets it run dry: ring slots are recycled without waiting for anything.)
// Damaged packets (CRC, truncated, wrong length), packets for another node, duplicates and
// packets after a gap are dropped: duplicates are re-acknowledged, a gap is NACKed once per
// (expected sequence, sender epoch). ACKs are cumulative and sent per block: at once after
// window/2 accepted packets, else when the ACK delay (timer 1) expires.
#include "firmware/grim/grim_fw.h"
#include "fw/routes.h"

namespace grimfw {

uint32_t fifo_head = 0, fifo_tail = 0, ctrl_head = 0, ctrl_tail = 0;
RxStream rx[kStreams];

namespace {
constexpr uint32_t kRingMax = 8;
constexpr uint32_t kBufsMax = kRingMax + kMaxPool;
constexpr uint32_t kFifoN = 256;  // >= kBufsMax, power of two
static_assert(kFifoN >= kBufsMax && kBufsMax < kNone, "buffer ids are bytes below kNone");


alignas(8) nic::RxDesc ring[kRingMax];
uint8_t ring_buf[kRingMax];
uint8_t* mem[kBufsMax];
uint8_t pool_free[kBufsMax];
uint32_t n_free = 0, rx_proc = 0;
uint8_t fifo[kFifoN];  // accepted packets in arrival order, waiting for delivery
uint8_t ctrl_list[kStreams];  // streams with an ACK or NACK to send
alignas(8) uint8_t ctrl_mem[kCtrlN][kRoutePad + kCtrlBytes];
uint32_t ctrl_free_mask = (1u << kCtrlN) - 1;
bool ack_timer = false;
StreamMask ack_later;  // streams with accepted packets waiting for the ACK delay

void want(uint32_t s, uint8_t what) {
  RxStream& r = *pin(&rx[s]);
  r.need |= what;
  if (r.queued) return;
  r.queued = 1;
  ctrl_list[ctrl_tail++ & (kStreams - 1)] = static_cast<uint8_t>(s);
  work |= kWorkCtrl;
}

// NACK the expected packet once per sender epoch (the sender rolls back and bumps it).
void nack(uint32_t s, uint32_t epoch, uint8_t why) {
  RxStream& r = *pin(&rx[s]);
  if (r.nacked && r.nack_seq == r.expected && r.nack_epoch == epoch) return;
  r.nacked = 1;
  r.nack_seq = r.expected;
  r.nack_epoch = static_cast<uint8_t>(epoch);
  r.nack_why = why;
  want(s, kNeedNack);
}

// A pool buffer back from delivery. The pool only shrinks between returns, so the count
// before this one is the fewest since the last: pool_min is exact without a test per accept
// (on every message's latency path), and pool_free is current again.
void pool_back(uint32_t b) {
  if (n_free < hif[kHifStats / 4 + kStatPoolMin]) hif[kHifStats / 4 + kStatPoolMin] = n_free;
  pool_free[n_free++] = static_cast<uint8_t>(b);
  hif[kHifStats / 4 + kStatPoolFree] = n_free;
}

void accept(uint32_t i, uint32_t s) {
  const uint32_t f = pool_free[--n_free];
  fifo[fifo_tail++ & (kFifoN - 1)] = ring_buf[i];
  work |= kWorkDeliver;
  ring_buf[i] = static_cast<uint8_t>(f);
  ring[i].buffer = reinterpret_cast<uintptr_t>(mem[f]);
  stat_add(kStatAccepted);  // pool_free and pool_min follow when a buffer returns (pool_back)
  RxStream& r = *pin(&rx[s]);
  ++r.expected;
  if (++r.unacked >= (cfg.window >> 1)) {
    want(s, kNeedAck);
    return;
  }
  ack_later.set(s);
  if (!ack_timer) {
    ack_timer = true;
    nic::timer_arm(1, cfg.rto >> 3);
  }
}

void data_packet(uint32_t i, const uint8_t* p, uint32_t len, uint32_t s) {
  const uint32_t w3 = r32(p, kOffEpoch);
  if (len != kDataHeader + (w3 & 0xFFFF)) { stat_add(kStatBadDropped); return; }
  piggybacked_ack(s, r32(p, kOffAck));  // valid on any undamaged packet
  RxStream& r = *pin(&rx[s]);
  const int32_t d = diff(r32(p, kOffSeq), r.expected);
  if (d < 0) {
    stat_add(kStatDupDropped);
    want(s, kNeedAck);
  } else if (d > 0) {
    stat_add(kStatGapDropped);
    nack(s, w3 >> 24, kNackGap);
  } else if (n_free == 0) {
    stat_add(kStatNoBufDropped);
    nack(s, w3 >> 24, kNackNoBuf);
  } else {
    accept(i, s);
  }
}

// One filled ring slot: classify the packet; the caller recycles the slot.
void one_packet(uint32_t i) {
  const uint32_t st = ring[i].status;
  const uint32_t len = st & nic::kRxLenMask;
  const uint8_t* p = mem[ring_buf[i]];
  const uint32_t w0 = r32(p, 0), w1 = r32(p, kOffDst);
  // One mask each: the type and a source below 16 (kMaxNodes); a channel below 4 (kChannels).
  static_assert(kMaxNodes == 16 && kChannels == 4, "the masks below");
  if ((st & (nic::kRxCrcErr | nic::kRxTrunc)) || len < kCtrlBytes || (w0 & 0xFFFFFFF0u) != uint32_t{kPacketType} << 16 || (w1 & 0xFC)) {
    stat_add(kStatBadDropped);
    return;
  }
  if (((w1 >> 16) & 0xFF) != my_node) { stat_add(kStatMisrouted); return; }  // the top byte: the destination endpoint
  const uint32_t s = (w0 & 0xFFFF) << 2 | (w1 & 0xFF), kind = (w1 >> 8) & 0xFF;
  if (kind == kKindData) return data_packet(i, p, len, s);
  if (len != kCtrlBytes) { stat_add(kStatBadDropped); return; }
  if (kind == kKindAck) {
    stat_add(kStatAcksReceived);
    on_ack(s, r32(p, kOffSeq));
  } else if (kind == kKindNack) {
    const uint32_t w3 = r32(p, kOffEpoch);
    on_nack(s, r32(p, kOffSeq), w3 >> 24, (w3 >> 16) & 0xFF);
  } else {
    stat_add(kStatBadDropped);
  }
}

}  // namespace

void recv_init() {
  const uint32_t n = cfg.ring + cfg.pool;
  const uint32_t bytes = (kDataHeader + cfg.mtu + 7) & ~7u;
  for (uint32_t b = 0; b < n; ++b) {
    mem[b] = static_cast<uint8_t*>(malloc(bytes));
    if (!mem[b]) {
      hif[kHifStats / 4 + kStatError] = kErrSram;
      printf("grim_fw: out of SRAM for %u receive buffers of %u bytes\n", static_cast<unsigned>(n), static_cast<unsigned>(bytes));
      exit(2);
    }
  }
  for (uint32_t i = 0; i < cfg.ring; ++i) {
    ring_buf[i] = static_cast<uint8_t>(i);
    ring[i].buffer = reinterpret_cast<uintptr_t>(mem[i]);
    ring[i].status = nic::kRxOwn;
  }
  for (uint32_t b = cfg.ring; b < n; ++b) pool_free[n_free++] = static_cast<uint8_t>(b);
  hif[kHifStats / 4 + kStatPoolFree] = n_free;
  hif[kHifStats / 4 + kStatPoolMin] = n_free;
  nic::rx_setup(ring, cfg.ring, bytes, nic::RxPolicy::kBackPressure);
  nic::rx_enable();
}

void handle_received() {
  const uint32_t filled = nic::rx_tail();
  if (rx_proc == filled) return;
  while (rx_proc != filled) {
    const uint32_t i = rx_proc & (cfg.ring - 1);
    one_packet(i);
    ring[i].status = nic::kRxOwn;
    ++rx_proc;
  }
  nic::rx_kick();
}

// Timer 1: the ACK delay is over; acknowledge every stream with accepted packets.
void on_ack_timer() {
  ack_timer = false;
  for (uint32_t i = 0; i < 2; ++i)
    for (uint32_t bits = ack_later.w[i]; bits; bits &= bits - 1) want(i << 5 | static_cast<uint32_t>(__builtin_ctz(bits)), kNeedAck);
  ack_later.w[0] = ack_later.w[1] = 0;
}

void ack_sent(uint32_t s) {
  RxStream& r = *pin(&rx[s]);
  r.need &= ~kNeedAck;  // a queued NACK still goes out
  if (!r.unacked) return;
  r.unacked = 0;
  ack_later.clear(s);
  if (ack_timer && !ack_later.any()) {  // spare the wake-up
    nic::timer_arm(1, 0);
    ack_timer = false;
  }
}

void flush_control() {
  while (ctrl_head != ctrl_tail && ctrl_free_mask && sq_free()) {
    const uint32_t s = ctrl_list[ctrl_head++ & (kStreams - 1)];
    RxStream& r = *pin(&rx[s]);
    if (r.need == 0) {  // a data packet carried the ACK
      r.queued = 0;
      continue;
    }
    const uint32_t k = 31 - __builtin_clz(ctrl_free_mask);
    ctrl_free_mask &= ~(1u << k);
    const sanvp::route_abi::RouteEntry& rt = fw::route_to(s >> 2);
    uint8_t* p = ctrl_mem[k] + kRoutePad;
    for (uint32_t j = 0; j < rt.len; ++j) p[j - rt.len] = rt.hops[j];
    // A NACK overtaken by the packet it asked for (accepted since) is an ACK now.
    const bool is_nack = (r.need & kNeedNack) && r.nack_seq == r.expected;
    w32(p, 0) = (uint32_t{kPacketType} << 16) | my_node;
    w32(p, kOffDst) = (s >> 2) << 16 | (is_nack ? kKindNack : kKindAck) << 8 | (s & (kChannels - 1));
    w32(p, kOffSeq) = is_nack ? r.nack_seq : r.expected;
    w32(p, kOffEpoch) = is_nack ? (uint32_t{r.nack_epoch} << 24 | uint32_t{r.nack_why} << 16) : 0;
    stat_add(is_nack ? kStatNacksSent : kStatAcksSent);
    r.need = 0;
    r.queued = 0;
    r.unacked = 0;
    ack_later.clear(s);
    post_packet(p - rt.len, rt.len + kCtrlBytes, rt.len, static_cast<uint8_t>(0x80 | k));
  }
  if (ctrl_head == ctrl_tail) work &= ~kWorkCtrl;
}

void control_sent(uint32_t k) { ctrl_free_mask |= 1u << k; }

// A message's first fragment for device endpoint e: its next posted receive buffer. False if
// it has none posted (retried on the next event); a message for an endpoint that is not open is
// counted and dropped (r.ep = kNone).
static bool take_device_buffer(RxStream& r, uint32_t e, uint32_t total) {
  if (e >= kMaxEndpoints || !((ep_open >> e) & 1)) {
    stat_add(kStatNoEndpoint);
    r.ep = kNone;
    return true;
  }
  Endpoint& ep = *pin(&eps[e]);
  if (ep.rq_cons == *ep.rq_prod) return false;
  const volatile uint32_t* q = pin(&ep.rq[(ep.rq_cons & (kRqEntries - 1)) * (kRqEntryBytes / 4)]);
  r.host = q[0];
  r.cap = q[1];
  r.slot = ep.rq_cons++;
  r.truncated = total > r.cap;
  r.ep = static_cast<uint8_t>(e);
  return true;
}

// Accepted packets into the endpoints' memory, in arrival order (so in order per stream).
void deliver() {
  while (fifo_head != fifo_tail && hdma_space() >= 2) {
    const uint32_t b = fifo[fifo_head & (kFifoN - 1)];
    const uint8_t* p = mem[b];
    const uint32_t s = (r32(p, 0) & 0xFFFF) << 2 | (r32(p, kOffDst) & 0xFF);
    const uint32_t w3 = r32(p, kOffEpoch), n = w3 & 0xFFFF, flags = (w3 >> 16) & 0xFF;
    // Top bytes: handler id, source endpoint (two shifts: no 24-bit mask constant to build).
    const uint32_t w5 = r32(p, kOffTotal), w6 = r32(p, kOffFragment), total = (w5 << 8) >> 8, off = (w6 << 8) >> 8;
    RxStream& r = *pin(&rx[s]);
    if (flags & kFlagFirst) {
      const uint32_t e = p[kOffDst];  // the destination endpoint (top byte)
      if (e == 0) {                   // the host: the HIF's own receive queue
        if (eps[0].rq_cons == hif[kHifRqProd / 4]) return;  // no receive buffer posted: retried on the next event
        const volatile uint32_t* q = &hif[kHifRq / 4 + (eps[0].rq_cons & (kRqEntries - 1)) * (kRqEntryBytes / 4)];
        r.host = q[0];
        r.cap = q[1];
        r.slot = eps[0].rq_cons++;
        r.truncated = total > r.cap;
        r.ep = 0;
      } else if (!take_device_buffer(r, e, total)) {
        return;
      }
    }
    ++fifo_head;
    if (r.ep == kNone) {  // no such endpoint here: the fragment goes back to the pool
      pool_back(b);
      continue;
    }
    // Read once: hdma_queue's stores would make the compiler load them again for post_cq.
    const uint32_t cap = r.cap, truncated = r.truncated, slot = r.slot, ep = r.ep;
    uint32_t put = 0;
    if (off < cap) put = cap - off < n ? cap - off : n;
    const uint32_t what = kActDeliver | b << 16 | s << 24;
    hdma_queue(p + kDataHeader, r.host + off, put, 0, what);
    if (flags & kFlagLast)
      post_cq((truncated ? kCqRecvTruncated : kCqRecv) | ep << 8, s, truncated ? cap : total, r32(p, kOffTag), slot,
              (w5 | w6) >> 24 ? (w5 >> 24) << 16 | (w6 >> 24) << 8 : 0);
  }
  if (fifo_head == fifo_tail) work &= ~kWorkDeliver;
}

void fragment_delivered(uint32_t b) {
  pool_back(b);
  stat_add(kStatDelivered);
}

}  // namespace grimfw
