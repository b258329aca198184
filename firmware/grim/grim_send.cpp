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

constexpr uint32_t kMsgN = 2 * kSqEntries;  // message slots shared by the endpoints' send queues
Msg msgs[kMsgN];
uint8_t free_msg = kNone;

StreamMask timed;  // streams with a retransmission deadline or back-off running
// Per endpoint and stream: 1 if it may send on it (allow_streams); a byte each, so that the
// check on every send is one load.
uint8_t sendable[kMaxEndpoints][kStreams];
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
GRIM_OUTLINE void load_fragment(uint32_t s, TxStream& t, uint32_t host, uint32_t len, uint32_t tag, uint32_t off, uint32_t n, uint32_t meta) {
  const uint32_t b = free_buf;
  SendBuf& sb = *pin(&sbuf[b]);
  uint8_t* p = sb.mem + kRoutePad;
  const bool last = off + n == len;
  // The payload's host DMA first (it writes behind the header, which is filled in while the
  // DMA runs): the load's latency is on every message's path. The host's `sent` entry follows
  // the last fragment's completion (its buffer is free then), after the packet was queued on
  // the link: hdma_completions.
  hdma_queue(p + kDataHeader, host + off, n, nic::kHdmaToSram, kActLoad | (last ? kActLast : 0) | b << 16 | s << 24, tag, len);
  free_buf = sb.next_free;
  stat_add(kStatSendFree, ~0u);
  const uint32_t dst = s >> 2;
  const sanvp::route_abi::RouteEntry& r = fw::route_to(dst);
  const uint32_t rl = r.len;
  for (uint32_t i = 0; i < rl; ++i) p[i - rl] = r.hops[i];
  w32(p, 0) = (uint32_t{kPacketType} << 16) | my_node;
  w32(p, kOffDst) = (dst << 16) | (kKindData << 8) | (s & (kChannels - 1));
  w32(p, kOffSeq) = t.tail;
  w32(p, kOffEpoch) = ((off == 0 ? kFlagFirst : 0) | (last ? kFlagLast : 0)) << 16 | n;
  w32(p, kOffTag) = tag;
  w32(p, kOffTotal) = len;
  w32(p, kOffFragment) = off;
  if (meta) {  // the top bytes (big-endian): destination endpoint, handler id, source endpoint; all 0 for the host's plain messages
    p[kOffDst] = static_cast<uint8_t>(meta >> 16);
    p[kOffTotal] = static_cast<uint8_t>(meta >> 24);
    p[kOffFragment] = static_cast<uint8_t>(meta >> 8);
  }
  sb.start = p - rl;
  sb.length = rl + kDataHeader + n;
  sb.route = static_cast<uint8_t>(rl);
  sb.refs = 0;
  sb.acked = 0;
  t.slot[t.tail & (cfg.window - 1)] = static_cast<uint8_t>(b);
  ++t.tail;
}

// Loads the next fragment of stream s's head message (the caller checked window, buffer and
// host-DMA room).
void load_one(uint32_t s) {
  TxStream& t = *pin(&tx[s]);
  const uint32_t k = t.msg_head;
  Msg& m = *pin(&msgs[k]);
  const uint32_t left = m.len - m.off, n = left < cfg.mtu ? left : cfg.mtu;
  load_fragment(s, t, m.host, m.len, m.tag, m.off, n, m.meta);
  m.off += n;
  if (m.off != m.len) return;
  t.msg_head = m.next;
  if (t.msg_head == kNone) t.msg_tail = kNone;
  m.next = free_msg;
  free_msg = static_cast<uint8_t>(k);
}

// Stream s's next packet made current before it goes on the link: the epoch (NACKs echo it)
// and the piggy-backed ACK of the peer's stream back to us; b is its buffer.
void prepare_next(uint32_t s, const TxStream& t, uint32_t b) {
  uint8_t* p = sbuf[b].mem + kRoutePad;
  p[kOffEpoch] = t.epoch;
  w32(p, kOffAck) = rx[s].expected;  // the receive side's bookkeeping follows the post (account_next)
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
bool load_direct(uint32_t s, TxStream& t, uint32_t host, uint32_t len, uint32_t tag, uint32_t meta) {
  if (t.msg_head != kNone || len > cfg.mtu || free_buf == kNone || t.tail - t.base >= cfg.window || hdma_space() < 3) return false;
  load_fragment(s, t, host, len, tag, 0, len, meta);
  return true;
}

// One send-queue entry `q` of endpoint e, which owns the channels `chans`: refused (error
// completion: a bad destination, a channel e does not own, a length outside 1..kMaxMessage),
// loaded at once, or queued on its stream. The caller checked a message slot and 2 host-DMA slots.
__attribute__((always_inline)) inline void admit(uint32_t e, const uint8_t* ok, const volatile uint32_t* q) {
  const uint32_t host = q[0], len = q[1], to = q[2], tag = q[3];
  const uint32_t s = ((to >> 6) & 0x3C) | (to & 3);  // (dst << 2 | channel), faithful once the range check passed
  // to = handler << 24 | endpoint << 16 | dst << 8 | channel: endpoint < 4, dst < 16, channel < 4;
  // `ok` holds the streams e may send on (destinations with a route x the channels it owns).
  if ((to & 0x00FCF0FCu) || !ok[s] || ((len - 1) >> 24)) {
    stat_add(kStatSendRefused);
    post_cq(kCqSendError | e << 8, s, len, tag, 0, 0);
    return;
  }
  const uint32_t meta = (to & 0xFFFF0000u) | e << 8;
  TxStream& t = *pin(&tx[s]);
  if (load_direct(s, t, host, len, tag, meta)) return;
  if (acks_in.any()) {  // short of a buffer or window room: take the piggy-backed ACKs first
    take_acks();
    if (load_direct(s, t, host, len, tag, meta)) return;
  }
  const uint8_t k = free_msg;
  Msg& m = *pin(&msgs[k]);
  free_msg = m.next;
  m = Msg{host, len, 0, tag, meta, kNone, {}};
  if (t.msg_tail == kNone) t.msg_head = k;
  else msgs[t.msg_tail].next = k;
  t.msg_tail = k;
  update_loadable(s);
}

// Endpoint 0 (the host) alone: every entry of the HIF's own send queue.
void intake_host() {
  const uint32_t prod = hif[kHifSqProd / 4];
  while (eps[0].sq_cons != prod) {
    if (free_msg == kNone || hdma_space() < 2) {  // retried on the next event (kWorkIntake)
      work |= kWorkIntake;
      return;
    }
    const volatile uint32_t* q = pin(&hif[kHifSq / 4 + (eps[0].sq_cons++ & (kSqEntries - 1)) * (kSqEntryBytes / 4)]);
    admit(0, sendable[0], q);
  }
}

// Several endpoints: at most one entry of endpoint e; whether it took one.
uint32_t intake_one(uint32_t e) {
  Endpoint& ep = *pin(&eps[e]);
  if (ep.sq_cons == *ep.sq_prod) return 0;
  if (free_msg == kNone || hdma_space() < 2) {
    work |= kWorkIntake;
    return 0;
  }
  admit(e, sendable[e], pin(&ep.sq[(ep.sq_cons++ & (kSqEntries - 1)) * (kSqEntryBytes / 4)]));
  return 1;
}
}  // namespace

void send_init() {
  for (uint32_t i = 0; i < kMsgN; ++i) msgs[i].next = i + 1 < kMsgN ? static_cast<uint8_t>(i + 1) : kNone;
  free_msg = 0;
  free_buf = 0;  // alloc_send_buffers chained them
  for (uint32_t s = 0; s < kStreams; ++s) {
    tx[s].msg_head = tx[s].msg_tail = kNone;
    tx[s].rto = cfg.rto;
    tx[s].backoff = cfg.backoff;
  }
  for (uint32_t d = 0; d < kMaxNodes; ++d)
    if (d < g_nodes && fw::route_to(d).len - 1u < sanvp::route_abi::kMaxRouteBytes) dst_ok |= 1u << d;
  allow_streams(0);
  nic::sq_setup(sq, kSqN);
}

void allow_streams(uint32_t e) {
  for (uint32_t s = 0; s < kStreams; ++s) sendable[e][s] = ((dst_ok >> (s >> 2)) & 1) && ((eps[e].chans >> (s & 3)) & 1);
}

void intake_host_sends() {
  if (ep_closed) open_endpoints();
  work &= ~kWorkIntake;
  if (ep_open == 1) return intake_host();
  // Several endpoints: one entry of each in turn, so that none waits behind another's burst.
  for (uint32_t more = 1; more;) {
    more = 0;
    for (uint32_t m = ep_open; m; m &= m - 1) more |= intake_one(static_cast<uint32_t>(__builtin_ctz(m)));
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
  if (work & kWorkIntake) intake_host_sends();  // message slots freed
  return any;
}


uint32_t sq_free() { return kSqN - (sq_head - sq_done); }

// The caller checked room (sq_free): no second test on every packet's path.
void post_packet(const uint8_t* start, uint32_t length, uint32_t route, uint8_t tag) {
  const uint32_t i = sq_head & (kSqN - 1);
  nic::send_desc(sq[i], start, length, route);
  sq_tag[i] = tag;
  nic::sq_set_head(++sq_head);
}

namespace {
// Puts stream s's next packet (buffer b) on the NIC's send queue (the caller checked room).
GRIM_OUTLINE void send_buf(uint32_t s, TxStream& t, uint32_t b) {
  prepare_next(s, t, b);
  SendBuf& sb = *pin(&sbuf[b]);
  post_packet(sb.start, sb.length, sb.route, static_cast<uint8_t>(b));  // out first, bookkeeping after
  account_next(s, t, sb);
}

void send_next(uint32_t s, TxStream& t) { send_buf(s, t, t.slot[t.next & (cfg.window - 1)]); }

}  // namespace

void fragment_loaded(uint32_t s, uint32_t b) {
  TxStream& t = *pin(&tx[s]);
  const uint32_t seq = t.loaded++;
  // The only packet waiting and room on the link: straight out, before the rest of the
  // completions (on the latency path of every small message).
  if (!ready.any() && !t.held && t.next == seq && data_queued < kDataAhead && sq_free() > 1) return send_buf(s, t, b);
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
