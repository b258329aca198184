// GRIM firmware internals shared by its source files (firmware only; the host contract is
// grim_proto.h). One stream per (peer node, logical channel): the sender's window of retained
// packets (tx) and the receiver's expected sequence number and delivery state (rx).
//
//   grim_fw.cpp     configuration, buffers, the event loop
//   grim_hdma.cpp   host-DMA ring with an action per descriptor, completion-queue entries
//   grim_send.cpp   host send queue -> fragments -> window; link scheduler; ACK/NACK/timeouts
//   grim_recv.cpp   receive ring and buffer pool; accept/NACK/drop; control packets; delivery
//
// Sequence numbers and RTC deadlines are 32-bit and compared by signed difference (wrap-safe).
// The core has no multiplier: the hot paths use masks and shifts only.
#pragma once
#include "firmware/grim/grim_proto.h"
#include "fw/nic.h"

namespace grimfw {

using namespace sanvp::grim;
namespace nic = fw::nic;

constexpr uint32_t kHdmaN = 64;                  // host-DMA ring (power of two)
constexpr uint32_t kSqN = 32;                    // hardware send queue (power of two)
constexpr uint32_t kDataAhead = 2;               // data packets queued on the link at most
constexpr uint32_t kCtrlN = 16;                  // control-packet buffers (power of two)
constexpr uint32_t kStreams = kMaxNodes * kChannels;
constexpr uint32_t kRoutePad = 32;               // route bytes sit right before the type field
constexpr uint8_t kNone = 0xFF;

// A set of streams (64 = two words): which ones have work of some kind, found in a few
// instructions with trailz instead of scanning every stream.
struct StreamMask {
  uint32_t w[2];
  void set(uint32_t s) { w[s >> 5] |= 1u << (s & 31); }
  void clear(uint32_t s) { w[s >> 5] &= ~(1u << (s & 31)); }
  void put(uint32_t s, bool on) { on ? set(s) : clear(s); }
  bool any() const { return (w[0] | w[1]) != 0; }
  // The first stream at or after `from`, cyclically (round robin); kStreams if none.
  uint32_t next(uint32_t from) const {
    uint32_t i = from >> 5, bits = w[i] & (~0u << (from & 31));
    for (uint32_t pass = 0; pass < 3; ++pass) {
      if (bits) return (i << 5) + static_cast<uint32_t>(__builtin_ctz(bits));
      i ^= 1;
      bits = w[i];
    }
    return kStreams;
  }
};
static_assert(kStreams == 64, "StreamMask holds 64 streams");

// Kept out of line on purpose: clang 14's Lanai backend hoists every global address an inlined
// body needs into the caller's prologue and spills them to the stack, so a loop that usually
// runs once would pay for all of them on every call.
#define GRIM_OUTLINE __attribute__((noinline))

// The address of an element, hidden from the optimizer: clang 14's Lanai backend otherwise
// folds `array + field offset` into a fresh 2-instruction constant per field access (mov, add)
// instead of one base register with small offsets, which doubled the cost of the hot paths.
template <class T>
inline T* pin(T* p) {
  asm("" : "+r"(p));
  return p;
}

inline int32_t diff(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b); }
inline uint32_t& w32(uint8_t* p, uint32_t off) { return *reinterpret_cast<uint32_t*>(p + off); }
inline uint32_t r32(const uint8_t* p, uint32_t off) { return *reinterpret_cast<const uint32_t*>(p + off); }
inline uint32_t now32() { return nic::nic_reg(nic::kRtcLo); }  // low word of this NIC's RTC

// Handlers that may have something to do (kWork*, below), set where work appears and cleared
// by the handler once its source is empty; the event loop tests this word (grim_fw.cpp).
extern uint32_t work;
// Set when: a packet is accepted (deliver), an ACK/NACK is queued (control), a stream becomes
// ready or a data packet leaves the send queue (link: cleared on every return of the
// scheduler), a stream becomes loadable (load), a piggy-backed ACK arrives (ack). Testing one
// word spares calling handlers that would return at once (15-30 instructions each).
enum : uint32_t { kWorkDeliver = 1, kWorkCtrl = 2, kWorkLink = 4, kWorkLoad = 8, kWorkAck = 16 };

// Configuration from the host (grim_fw.cpp).
struct Config {
  uint32_t mtu, rto, backoff, window, pool, send_bufs, ring;  // rto/backoff in RTC ticks
};
extern Config cfg;
extern uint32_t my_node;
extern volatile uint32_t hif[kHifBytes / 4];
inline void stat_add(Stat s, uint32_t n = 1) { hif[kHifStats / 4 + s] += n; }

// ---- send side (grim_send.cpp) ----
struct SendBuf {
  uint8_t* mem;     // kRoutePad + kDataHeader + mtu bytes
  uint8_t* start;   // first route byte
  uint32_t length;  // route + header + fragment
  uint8_t route, refs, acked, next_free;  // refs: send-queue descriptors naming it
};
struct Msg { uint32_t host, len, off, tag; uint8_t next, pad[15]; };  // 32 bytes: msgs[k] is one shift
struct TxStream {
  uint32_t base, next, hi, tail, loaded;  // oldest unacked, next to send, highest sent + 1, next to assign, loaded up to
  uint32_t deadline, hold_until, rto, backoff;
  uint8_t epoch, timing, held;
  uint8_t msg_head, msg_tail;
  uint8_t slot[kMaxWindow];              // send buffer of seq s at s & (window - 1)
  uint32_t ack_in;                       // the latest piggy-backed ACK, taken after delivery (acks_in)
};
static_assert(sizeof(TxStream) == 64, "TxStream indexing is a shift");
extern SendBuf sbuf[kMaxSendBuffers];
extern TxStream tx[kStreams];
// Streams with a packet to (re)send now, and with a fragment to load and room in the window.
extern StreamMask ready, loadable;
extern StreamMask acks_in;  // streams with a piggy-backed ACK not yet taken
extern uint8_t free_buf;
extern uint32_t data_queued;
void send_init();
void intake_host_sends();       // doorbell: host send-queue entries into per-stream message queues
bool load_fragments();          // fragments of queued messages into send buffers (host DMA)
void fragment_loaded(uint32_t stream);
void schedule_link();           // round robin over streams with packets to send
void send_queue_completions();
void on_ack(uint32_t stream, uint32_t seq);
// A data packet from stream s's peer acknowledged `seq` of ours: noted here and taken in a
// batch by take_acks() when something needs it -- a load short of a send buffer or window
// room, a stream with queued messages, the retransmission timer -- so that a ping-pong pays
// for its ACKs once per window instead of on every message's latency path.
inline void piggybacked_ack(uint32_t s, uint32_t seq) {
  TxStream& t = *pin(&tx[s]);
  if (diff(seq, t.ack_in) <= 0 || diff(seq, t.hi) > 0) return;  // nothing new, or not sent yet (damaged)
  t.ack_in = seq;
  acks_in.set(s);
  if (t.msg_head != kNone || free_buf == kNone) work |= kWorkAck;  // a load waits for it
}
void take_acks();
void on_nack(uint32_t stream, uint32_t seq, uint32_t epoch, uint32_t why);
void on_timer();
bool post_packet(const uint8_t* start, uint32_t length, uint32_t route, uint8_t tag);  // tag: send buffer, or 0x80 | control buffer
uint32_t sq_free();

// ---- receive side (grim_recv.cpp) ----
struct RxStream {
  uint32_t expected, nack_seq, unacked;
  uint32_t host, cap, slot;  // receive buffer of the message being delivered
  uint8_t nack_epoch, nacked, need, nack_why, queued, truncated, pad[2];  // 32 bytes: rx[s] is one shift
};
static_assert(sizeof(RxStream) == 32, "RxStream indexing is a shift");
extern RxStream rx[kStreams];
extern uint32_t ctrl_head, ctrl_tail, fifo_head, fifo_tail;
constexpr uint8_t kNeedAck = 1, kNeedNack = 2;  // RxStream::need
// A data packet to stream s's peer carried the ACK (rx[s].expected, read before it was queued):
// no ACK packet is due for it.
void ack_sent(uint32_t stream);
inline void ack_piggybacked(uint32_t s) {
  const RxStream& r = rx[s];
  if (r.unacked | (r.need & kNeedAck)) ack_sent(s);  // else nothing was pending: no call
}
void recv_init();
void handle_received();
void flush_control();
void on_ack_timer();       // timer 1: the ACK delay is over
void deliver();
void fragment_delivered(uint32_t buf);
void control_sent(uint32_t ctrl);

// ---- host DMA (grim_hdma.cpp) ----
// What to do when a host-DMA descriptor completes (they complete in order), packed so that
// queueing one costs a few word stores: `what` = kind | buffer << 16 | stream << 24; `tag` is
// a completion entry's sequence number (the host interrupt names it) or, with `len`, the
// message a last fragment's load completes (kActLoad | kActLast: post its `sent` entry).
enum : uint32_t { kActNone, kActLoad, kActDeliver, kActCq, kActLast = 1u << 8 };
struct Action { uint32_t what, tag, len, pad; };  // 16 bytes: one shift
extern nic::HdmaDesc hdma_ring[kHdmaN];
extern Action hdma_actions[kHdmaN];
extern uint32_t hdma_head, hdma_done;
// Queued descriptors whose completion the firmware must see soon (loads, deliveries, and
// completion entries when the host wants interrupts): with none, kIrqHdmaDone is masked, so
// that a completion entry reaching the host does not wake the core; its completion is taken
// with the next one that does (the event loop, grim_fw.cpp).
extern uint32_t hdma_waking;
inline uint32_t hdma_space() { return kHdmaN - (hdma_head - hdma_done); }
inline void hdma_queue(const void* local, uint32_t host, uint32_t len, uint32_t control, uint32_t what, uint32_t tag = 0,
                       uint32_t msg_len = 0) {
  const uint32_t head = hdma_head, i = head & (kHdmaN - 1);
  nic::HdmaDesc& d = *pin(&hdma_ring[i]);
  d.local = reinterpret_cast<uintptr_t>(local);
  d.host = host;
  d.length = len;
  d.control = control;
  Action& a = *pin(&hdma_actions[i]);
  a.what = what;
  a.tag = tag;
  a.len = msg_len;
  if (what != kActCq) ++hdma_waking;
  hdma_head = head + 1;
  nic::hdma_set_head(head + 1);
}
void hdma_init();
void hdma_completions();


void post_cq(uint32_t kind, uint32_t stream, uint32_t len, uint32_t tag, uint32_t slot);

}  // namespace grimfw
