// GRIM send side: optimistic transmission with go-back-N.
//
//   host send queue -> per-stream message FIFO -> fragments loaded by host DMA into send
//   buffers, numbered per stream -> the link scheduler (round robin over streams) queues them
//   on the NIC's send queue -> retained until a (block) ACK covers them.
//   NACK: roll the stream back to the NACKed packet (a NACK for want of a buffer also holds
//   it for a back-off that doubles per NACK); no ACK progress for rto: roll back to the oldest
//   unacknowledged packet. Each rollback bumps the stream's epoch, which data packets carry and
//   NACKs echo, so a NACK that answers an older round is ignored.
#include "firmware/grim/grim_fw.h"
#include "fw/routes.h"

namespace grimfw {

SendBuf sbuf[kMaxSendBuffers];
TxStream tx[kStreams];
StreamMask ready, loadable;  // each visited round robin
StreamMask acks_in;
uint8_t free_buf = kNone;
uint32_t data_queued = 0;

namespace {
constexpr uint32_t kMaxRtoShift = 3;  // a timeout doubles rto up to 8x

Msg msgs[kSqEntries];
uint8_t free_msg = kNone;
uint32_t sq_cons = 0;

StreamMask timed;  // streams with a retransmission deadline or back-off running
uint32_t rr_load = 0, rr_link = 0;
uint32_t dst_ok = 0;  // bit d: node d exists and has a usable route (from the mapper's table, once)

alignas(32) nic::SendDesc sq[kSqN];
uint8_t sq_tag[kSqN];
uint32_t sq_head = 0, sq_done = 0;

bool timer_on = false;
uint32_t timer_at = 0;

void arm(uint32_t deadline) {
  if (timer_on && diff(deadline, timer_at) >= 0) return;
  const int32_t left = diff(deadline, now32());
  nic::timer_arm(0, left > 0 ? static_cast<uint32_t>(left) : 1);
  timer_at = deadline;
  timer_on = true;
}

void update_ready(uint32_t s) {
  const TxStream& t = *pin(&tx[s]);
  if (t.held || t.next == t.loaded) return ready.clear(s);
  ready.set(s);
  work |= kWorkLink;
}
void update_loadable(uint32_t s) {
  const TxStream& t = *pin(&tx[s]);
  if (t.msg_head == kNone || t.tail - t.base >= cfg.window) return loadable.clear(s);
  loadable.set(s);
  work |= kWorkLoad;
}

void free_send_buf(uint32_t b) {
  sbuf[b].next_free = free_buf;
  free_buf = static_cast<uint8_t>(b);
  stat_add(kStatSendFree);
}

// Loads a fragment (n bytes at `off` of a message of `len` bytes at `host`) as stream s's next
// packet: header into a free send buffer, the payload by host DMA, and after the last fragment
// the host's `sent` completion right behind it. The caller checked window, buffer and 3
// host-DMA slots.
void load_fragment(uint32_t s, TxStream& t, uint32_t host, uint32_t len, uint32_t tag, uint32_t off, uint32_t n) {
  const uint32_t b = free_buf;
  SendBuf& sb = *pin(&sbuf[b]);
  free_buf = sb.next_free;
  stat_add(kStatSendFree, ~0u);
  const uint32_t dst = s >> 2;
  const sanvp::route_abi::RouteEntry& r = fw::route_to(dst);
  const uint32_t rl = r.len;
  uint8_t* p = sb.mem + kRoutePad;
  for (uint32_t i = 0; i < rl; ++i) p[i - rl] = r.hops[i];
  const bool last = off + n == len;
  w32(p, 0) = (uint32_t{kPacketType} << 16) | my_node;
  w32(p, kOffDst) = (dst << 16) | (kKindData << 8) | (s & (kChannels - 1));
  w32(p, kOffSeq) = t.tail;
  w32(p, kOffEpoch) = ((off == 0 ? kFlagFirst : 0) | (last ? kFlagLast : 0)) << 16 | n;
  w32(p, kOffTag) = tag;
  w32(p, kOffTotal) = len;
  w32(p, kOffFragment) = off;
  sb.start = p - rl;
  sb.length = rl + kDataHeader + n;
  sb.route = static_cast<uint8_t>(rl);
  sb.refs = 0;
  sb.acked = 0;
  t.slot[t.tail & (cfg.window - 1)] = static_cast<uint8_t>(b);
  ++t.tail;
  // The host's `sent` entry follows the last fragment's completion (its buffer is free then),
  // after the packet was queued on the link: hdma_completions.
  hdma_queue(p + kDataHeader, host + off, n, nic::kHdmaToSram, kActLoad | (last ? kActLast : 0) | s << 24, tag, len);
}

// Loads the next fragment of stream s's head message (the caller checked window, buffer and
// host-DMA room).
void load_one(uint32_t s) {
  TxStream& t = *pin(&tx[s]);
  const uint32_t k = t.msg_head;
  Msg& m = *pin(&msgs[k]);
  const uint32_t left = m.len - m.off, n = left < cfg.mtu ? left : cfg.mtu;
  load_fragment(s, t, m.host, m.len, m.tag, m.off, n);
  m.off += n;
  if (m.off != m.len) return;
  t.msg_head = m.next;
  if (t.msg_head == kNone) t.msg_tail = kNone;
  m.next = free_msg;
  free_msg = static_cast<uint8_t>(k);
}

// Stream s's next packet made current before it goes on the link: the epoch (NACKs echo it)
// and the piggy-backed ACK of the peer's stream back to us. Returns its buffer.
uint32_t prepare_next(uint32_t s, TxStream& t) {
  const uint32_t b = t.slot[t.next & (cfg.window - 1)];
  uint8_t* p = sbuf[b].mem + kRoutePad;
  p[kOffEpoch] = t.epoch;
  w32(p, kOffAck) = rx[s].expected;  // the receive side's bookkeeping follows the post (account_next)
  return b;
}

// Stream s's next packet (buffer sb) counts as on the link: window, counters, retransmission
// timer. Runs after the packet is queued: bookkeeping is off the latency path.
inline void account_next(uint32_t s, TxStream& t, SendBuf& sb) {
  ack_piggybacked(s);
  ++sb.refs;
  ++data_queued;
  if (diff(t.next, t.hi) >= 0) {
    t.hi = t.next + 1;
    stat_add(kStatDataSent);
  } else {
    stat_add(kStatRetransmits);
  }
  ++t.next;
  update_ready(s);
  if (!t.timing) {
    t.timing = 1;
    t.deadline = now32() + t.rto;
    timed.set(s);
    arm(t.deadline);
  }
}

// A host send-queue entry that can be loaded at once: one fragment, on a stream with nothing
// queued (so order is kept), window, buffer and host-DMA room. The common case of small
// messages skips the message queue and the load round robin.
bool load_direct(uint32_t s, TxStream& t, uint32_t host, uint32_t len, uint32_t tag) {
  if (t.msg_head != kNone || len > cfg.mtu || free_buf == kNone || t.tail - t.base >= cfg.window || hdma_space() < 3) return false;
  load_fragment(s, t, host, len, tag, 0, len);
  return true;
}

}  // namespace

void send_init() {
  for (uint32_t i = 0; i < kSqEntries; ++i) msgs[i].next = i + 1 < kSqEntries ? static_cast<uint8_t>(i + 1) : kNone;
  free_msg = 0;
  free_buf = 0;  // alloc_send_buffers chained them
  for (uint32_t s = 0; s < kStreams; ++s) {
    tx[s].msg_head = tx[s].msg_tail = kNone;
    tx[s].rto = cfg.rto;
    tx[s].backoff = cfg.backoff;
  }
  for (uint32_t d = 0; d < kMaxNodes; ++d)
    if (d < g_nodes && fw::route_to(d).len - 1u < sanvp::route_abi::kMaxRouteBytes) dst_ok |= 1u << d;
  nic::sq_setup(sq, kSqN);
}

void intake_host_sends() {
  const uint32_t prod = hif[kHifSqProd / 4];
  // Two host-DMA slots per entry: a refused entry's completion, and room for the loads.
  while (sq_cons != prod && free_msg != kNone && hdma_space() >= 2) {
    const volatile uint32_t* e = pin(&hif[kHifSq / 4 + (sq_cons & (kSqEntries - 1)) * (kSqEntryBytes / 4)]);
    const uint32_t host = e[0], len = e[1], to = e[2], tag = e[3];
    ++sq_cons;
    const uint32_t dst = to >> 8, ch = to & 0xFF, s = (dst & (kMaxNodes - 1)) << 2 | (ch & (kChannels - 1));
    if (to >= kMaxNodes << 8 || ch >= kChannels || !((dst_ok >> dst) & 1) || len == 0) {
      post_cq(kCqSendError, s, len, tag, 0);
      continue;
    }
    TxStream& t = *pin(&tx[s]);
    if (load_direct(s, t, host, len, tag)) continue;
    if (acks_in.any()) {  // short of a buffer or window room: take the piggy-backed ACKs first
      take_acks();
      if (load_direct(s, t, host, len, tag)) continue;
    }
    const uint8_t k = free_msg;
    Msg& m = *pin(&msgs[k]);
    free_msg = m.next;
    m = Msg{host, len, 0, tag, kNone, {}};
    if (t.msg_tail == kNone) t.msg_head = k;
    else msgs[t.msg_tail].next = k;
    t.msg_tail = k;
    update_loadable(s);
  }
}

// Round robin over streams with a fragment to load: one fragment per stream per turn.
bool load_fragments() {
  if (free_buf == kNone && acks_in.any()) take_acks();
  bool any = false;
  while (free_buf != kNone && loadable.any() && hdma_space() >= 3) {
    const uint32_t s = loadable.next(rr_load);
    rr_load = (s + 1) & (kStreams - 1);
    load_one(s);
    update_loadable(s);
    any = true;
  }
  if (!loadable.any()) work &= ~kWorkLoad;
  return any;
}


uint32_t sq_free() { return kSqN - (sq_head - sq_done); }

bool post_packet(const uint8_t* start, uint32_t length, uint32_t route, uint8_t tag) {
  if (sq_free() == 0) return false;
  const uint32_t i = sq_head & (kSqN - 1);
  nic::send_desc(sq[i], start, length, route);
  sq_tag[i] = tag;
  nic::sq_set_head(++sq_head);
  return true;
}

namespace {
// Puts stream s's next packet on the NIC's send queue (the caller checked room).
GRIM_OUTLINE void send_next(uint32_t s, TxStream& t) {
  const uint32_t b = prepare_next(s, t);
  SendBuf& sb = *pin(&sbuf[b]);
  post_packet(sb.start, sb.length, sb.route, static_cast<uint8_t>(b));  // out first, bookkeeping after
  account_next(s, t, sb);
}

}  // namespace

void fragment_loaded(uint32_t s) {
  TxStream& t = *pin(&tx[s]);
  const uint32_t seq = t.loaded++;
  // The only packet waiting and room on the link: straight out, before the rest of the
  // completions (on the latency path of every small message).
  if (!ready.any() && !t.held && t.next == seq && data_queued < kDataAhead && sq_free() > 1) return send_next(s, t);
  update_ready(s);
}

// Round robin over streams with a loaded packet to (re)send and no back-off in force.
void schedule_link() {
  while (data_queued < kDataAhead && ready.any() && sq_free() > 1) {
    const uint32_t s = ready.next(rr_link);
    rr_link = (s + 1) & (kStreams - 1);
    send_next(s, *pin(&tx[s]));
  }
  work &= ~kWorkLink;  // ready again (update_ready) or room again (send_queue_completions) sets it
}

void send_queue_completions() {
  const uint32_t tail = nic::sq_tail();
  while (sq_done != tail) {
    const uint8_t tag = sq_tag[sq_done & (kSqN - 1)];
    ++sq_done;
    if (tag & 0x80) {
      control_sent(tag & 0x7F);
      continue;
    }
    --data_queued;
    work |= kWorkLink;  // room on the link again
    SendBuf& sb = sbuf[tag];
    if (--sb.refs == 0 && sb.acked) free_send_buf(tag);
  }
}

// Cumulative acknowledgment: every packet before `seq` arrived.
void on_ack(uint32_t s, uint32_t seq) {
  TxStream& t = *pin(&tx[s]);
  if (diff(seq, t.base) <= 0 || diff(seq, t.hi) > 0) return;  // old, or not sent yet (damaged)
  const uint32_t mask = cfg.window - 1;
  for (uint32_t q = t.base; q != seq; ++q) {
    const uint32_t b = t.slot[q & mask];
    SendBuf& sb = *pin(&sbuf[b]);
    sb.acked = 1;
    if (sb.refs == 0) free_send_buf(b);
  }
  t.base = seq;
  t.rto = cfg.rto;
  t.backoff = cfg.backoff;
  // Only what an ACK can change is updated: `next` when it acknowledges past it, the window
  // (it only opens: tail - base < window now), the retransmission clock.
  if (diff(t.next, seq) < 0) {
    t.next = seq;
    update_ready(s);
  }
  if (t.msg_head != kNone) {
    loadable.set(s);
    work |= kWorkLoad;
  }
  if (seq == t.hi) {
    t.timing = 0;
    if (!t.held) timed.clear(s);
    if (!timed.any() && timer_on) {  // nothing to time: a stale expiry would only cost a wake-up
      nic::timer_arm(0, 0);
      timer_on = false;
    }
  } else {
    t.deadline = now32() + t.rto;  // the armed timer may fire early: on_timer re-arms
    arm(t.deadline);
  }
}

void take_acks() {
  work &= ~kWorkAck;
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t bits = acks_in.w[i];
    acks_in.w[i] = 0;
    for (uint32_t m = bits; m; m &= m - 1) {
      const uint32_t s = i << 5 | static_cast<uint32_t>(__builtin_ctz(m));
      on_ack(s, tx[s].ack_in);
    }
  }
}

void on_nack(uint32_t s, uint32_t seq, uint32_t epoch, uint32_t why) {
  on_ack(s, seq);  // a NACK of seq says everything before it arrived
  TxStream& t = *pin(&tx[s]);
  if (epoch != t.epoch || seq != t.base || t.base == t.hi) return;  // answers an older round
  stat_add(kStatNacksReceived);
  t.next = seq;
  ++t.epoch;
  if (why == kNackNoBuf) {
    t.held = 1;
    t.hold_until = now32() + t.backoff;
    timed.set(s);
    arm(t.hold_until);
    if (t.backoff < (t.rto >> 1)) t.backoff <<= 1;
    stat_add(kStatBackoffs);
  }
  update_ready(s);
}

namespace {
// One stream with a deadline or back-off running, at timer expiry.
void timer_one(uint32_t s, uint32_t now) {
  TxStream& t = *pin(&tx[s]);
  if (t.held) {  // no timeout during a back-off: the retransmission after it restarts the clock
    if (diff(t.hold_until, now) > 0) return arm(t.hold_until);
    t.held = 0;
    t.timing = 1;
    t.deadline = now + t.rto;
    arm(t.deadline);
    return update_ready(s);
  }
  if (diff(t.deadline, now) > 0) return arm(t.deadline);
  stat_add(kStatTimeouts);
  t.next = t.base;
  ++t.epoch;
  if (t.rto < (cfg.rto << kMaxRtoShift)) t.rto <<= 1;
  t.deadline = now + t.rto;
  arm(t.deadline);
  update_ready(s);
}
}  // namespace

// Timer 0 expired (or fired early): end back-offs, roll back timed-out streams, re-arm.
void on_timer() {
  timer_on = false;
  take_acks();  // piggy-backed ACKs not taken yet are no reason to retransmit
  const uint32_t now = now32();
  for (uint32_t i = 0; i < 2; ++i)
    for (uint32_t bits = timed.w[i]; bits; bits &= bits - 1) timer_one(i << 5 | static_cast<uint32_t>(__builtin_ctz(bits)), now);
}

}  // namespace grimfw
