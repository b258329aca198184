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

namespace {
constexpr uint32_t kMaxRtoShift = 3;  // a timeout doubles rto up to 8x

Msg msgs[kSqEntries];
uint8_t free_msg = kNone, free_buf = kNone;
uint32_t sq_cons = 0;

// Streams with a packet to (re)send now, with a fragment to load and room in the window, and
// with a retransmission deadline or back-off running; each visited round robin.
StreamMask ready, loadable, timed;
uint32_t rr_load = 0, rr_link = 0;

alignas(32) nic::SendDesc sq[kSqN];
uint8_t sq_tag[kSqN];
uint32_t sq_head = 0, sq_done = 0, data_queued = 0;

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
  const TxStream& t = tx[s];
  ready.put(s, !t.held && t.next != t.loaded);
}
void update_loadable(uint32_t s) {
  const TxStream& t = tx[s];
  loadable.put(s, t.msg_head != kNone && t.tail - t.base < cfg.window);
}
void update_timed(uint32_t s) {
  const TxStream& t = tx[s];
  timed.put(s, t.timing || t.held);
}

void free_send_buf(uint32_t b) {
  sbuf[b].next_free = free_buf;
  free_buf = static_cast<uint8_t>(b);
  stat_add(kStatSendFree);
}

// Header of the next fragment of stream s's head message, into send buffer b.
void build_fragment(uint32_t s, uint32_t b, Msg& m, uint32_t n, bool last) {
  SendBuf& sb = sbuf[b];
  const uint32_t dst = s >> 2;
  const sanvp::route_abi::RouteEntry& r = fw::route_to(dst);
  uint8_t* p = sb.mem + kRoutePad;
  for (uint32_t i = 0; i < r.len; ++i) p[i - r.len] = r.hops[i];
  w32(p, 0) = (uint32_t{kPacketType} << 16) | my_node;
  w32(p, kOffDst) = (dst << 16) | (kKindData << 8) | (s & (kChannels - 1));
  w32(p, kOffSeq) = tx[s].tail;
  w32(p, kOffEpoch) = ((m.off == 0 ? kFlagFirst : 0) | (last ? kFlagLast : 0)) << 16 | n;
  w32(p, kOffTag) = m.tag;
  w32(p, kOffTotal) = m.len;
  w32(p, kOffFragment) = m.off;
  sb.start = p - r.len;
  sb.length = r.len + kDataHeader + n;
  sb.route = r.len;
  sb.refs = 0;
  sb.acked = 0;
}

// Loads the next fragment of stream s (the caller checked window, buffer and host-DMA room).
void load_one(uint32_t s) {
  TxStream& t = tx[s];
  Msg& m = msgs[t.msg_head];
  const uint32_t b = free_buf;
  free_buf = sbuf[b].next_free;
  stat_add(kStatSendFree, ~0u);
  const uint32_t n = m.len - m.off < cfg.mtu ? m.len - m.off : cfg.mtu;
  const bool last = m.off + n == m.len;
  build_fragment(s, b, m, n, last);
  t.slot[t.tail & (cfg.window - 1)] = static_cast<uint8_t>(b);
  ++t.tail;
  hdma_queue(sbuf[b].mem + kRoutePad + kDataHeader, m.host + m.off, n, nic::kHdmaToSram, kActLoad | (last ? kActLast : 0) | s << 24,
             m.len, m.tag, 0);
  m.off += n;
  if (!last) return;
  const uint8_t done = t.msg_head;
  t.msg_head = m.next;
  if (t.msg_head == kNone) t.msg_tail = kNone;
  msgs[done].next = free_msg;
  free_msg = done;
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
  nic::sq_setup(sq, kSqN);
}

void intake_host_sends() {
  const uint32_t prod = hif[kHifSqProd / 4];
  // Two host-DMA slots per entry: a refused entry's completion, and room for the loads.
  while (sq_cons != prod && free_msg != kNone && hdma_space() >= 2) {
    const volatile uint32_t* e = &hif[kHifSq / 4 + (sq_cons & (kSqEntries - 1)) * (kSqEntryBytes / 4)];
    const uint32_t host = e[0], len = e[1], to = e[2], tag = e[3];
    ++sq_cons;
    const uint32_t dst = to >> 8, ch = to & 0xFF;
    if (dst >= kMaxNodes || dst >= g_nodes || fw::route_to(dst).len - 1u >= sanvp::route_abi::kMaxRouteBytes || ch >= kChannels ||
        len == 0) {
      post_cq(kCqSendError, (dst & (kMaxNodes - 1)) << 2 | (ch & (kChannels - 1)), len, tag, 0);
      continue;
    }
    const uint8_t k = free_msg;
    Msg& m = msgs[k];
    free_msg = m.next;
    m = Msg{host, len, 0, tag, kNone};
    const uint32_t s = dst << 2 | ch;
    TxStream& t = tx[s];
    if (t.msg_tail == kNone) t.msg_head = k;
    else msgs[t.msg_tail].next = k;
    t.msg_tail = k;
    update_loadable(s);
  }
}

// Round robin over streams with a fragment to load: one fragment per stream per turn.
bool load_fragments() {
  bool any = false;
  while (free_buf != kNone && loadable.any() && hdma_space() >= 3) {
    const uint32_t s = loadable.next(rr_load);
    rr_load = (s + 1) & (kStreams - 1);
    load_one(s);
    update_loadable(s);
    any = true;
  }
  return any;
}

void fragment_loaded(uint32_t s) {
  ++tx[s].loaded;
  update_ready(s);
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

// Round robin over streams with a loaded packet to (re)send and no back-off in force.
void schedule_link() {
  while (data_queued < kDataAhead && ready.any() && sq_free() > 1) {
    const uint32_t s = ready.next(rr_link);
    rr_link = (s + 1) & (kStreams - 1);
    TxStream& t = tx[s];
    SendBuf& sb = sbuf[t.slot[t.next & (cfg.window - 1)]];
    sb.mem[kRoutePad + kOffEpoch] = t.epoch;  // NACKs echo it
    post_packet(sb.start, sb.length, sb.route, static_cast<uint8_t>(t.slot[t.next & (cfg.window - 1)]));
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
    SendBuf& sb = sbuf[tag];
    if (--sb.refs == 0 && sb.acked) free_send_buf(tag);
  }
}

// Cumulative acknowledgment: every packet before `seq` arrived.
void on_ack(uint32_t s, uint32_t seq) {
  TxStream& t = tx[s];
  if (diff(seq, t.base) <= 0 || diff(seq, t.hi) > 0) return;  // old, or not sent yet (damaged)
  for (uint32_t q = t.base; q != seq; ++q) {
    const uint32_t b = t.slot[q & (cfg.window - 1)];
    sbuf[b].acked = 1;
    if (sbuf[b].refs == 0) free_send_buf(b);
  }
  t.base = seq;
  if (diff(t.next, seq) < 0) t.next = seq;
  t.rto = cfg.rto;
  t.backoff = cfg.backoff;
  if (t.base == t.hi) {
    t.timing = 0;
    update_timed(s);
  } else {
    t.deadline = now32() + t.rto;  // the armed timer may fire early: on_timer re-arms
    arm(t.deadline);
  }
  update_ready(s);
  update_loadable(s);
}

void on_nack(uint32_t s, uint32_t seq, uint32_t epoch, uint32_t why) {
  on_ack(s, seq);  // a NACK of seq says everything before it arrived
  TxStream& t = tx[s];
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
  TxStream& t = tx[s];
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
  const uint32_t now = now32();
  for (uint32_t i = 0; i < 2; ++i)
    for (uint32_t bits = timed.w[i]; bits; bits &= bits - 1) timer_one(i << 5 | static_cast<uint32_t>(__builtin_ctz(bits)), now);
}

}  // namespace grimfw
