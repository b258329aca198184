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
// kWorkIntake: an endpoint's send queue still holds entries the firmware could not take for want
// of a message slot or host-DMA room: retried when a load frees a slot or host DMA completes,
// not only on the next doorbell. kWorkBell: a device's doorbell waits for host-DMA room.
enum : uint32_t { kWorkDeliver = 1, kWorkCtrl = 2, kWorkLink = 4, kWorkLoad = 8, kWorkAck = 16, kWorkIntake = 32, kWorkBell = 64 };

// Configuration from the host (grim_fw.cpp).
struct Config {
  uint32_t mtu, rto, backoff, window, pool, send_bufs, ring;  // rto/backoff in RTC ticks
};
extern Config cfg;
extern uint32_t my_node;
extern volatile uint32_t hif[kHifBytes / 4];
inline void stat_add(Stat s, uint32_t n = 1) { hif[kHifStats / 4 + s] += n; }
static_assert(kHifStats + 4 * kStatWords <= kHifChannels, "the counters end before the endpoint words");

// ---- endpoints (grim_fw.cpp) ----
// Endpoint 0 is the host CPU (the HIF's own rings, completion queue in host memory); endpoints
// 1.. are PCI devices (their blocks, kEp*; completion queue in device memory, then a 4-byte
// write of its seq to the device's doorbell). Each ring has one producer and each channel one
// owning endpoint, so the firmware needs no lock either: it is the only consumer of every
// send and receive queue and the only producer of every completion queue.
struct Endpoint {
  volatile uint32_t* sq;       // send-queue entries
  volatile uint32_t* rq;       // receive-queue entries
  volatile uint32_t* sq_prod;  // producer indices, written by the endpoint
  volatile uint32_t* rq_prod;
  uint32_t sq_cons, rq_cons, chans;           // chans: bit c = it owns logical channel c
  uint32_t cq_seq, cq_host, cq_next, cq_end;  // completion queue: bus addresses (start, next entry, end)
  uint32_t bell, bell_val;                    // the device's doorbell (bus address; 0: none) and the word written to it
  uint32_t cq_what;                           // host-DMA action of its entries: kActCq, | kActLast to interrupt the host
  uint32_t pad[2];
};
static_assert(sizeof(Endpoint) == 64, "Endpoint indexing is a shift");
extern Endpoint eps[kMaxEndpoints];
extern uint32_t ep_open;    // bit e: endpoint e is open (bit 0 always)
extern uint32_t ep_closed;  // endpoints the host allowed that have not opened yet (looked at on doorbells)
extern uint8_t chan_owner[kChannels];  // the endpoint owning each channel (kNone: none)
void open_endpoints();

// ---- send side (grim_send.cpp) ----
struct SendBuf {
  uint8_t* mem;     // kRoutePad + kDataHeader + mtu bytes
  uint8_t* start;   // first route byte
  uint32_t length;  // route + header + fragment
  uint8_t route, refs, acked, next_free;  // refs: send-queue descriptors naming it
};
// meta: handler << 24 | destination endpoint << 16 | source endpoint << 8 (the packet's fields).
struct Msg { uint32_t host, len, off, tag, meta; uint8_t next, pad[11]; };  // 32 bytes: msgs[k] is one shift
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
void allow_streams(uint32_t e);  // endpoint e's channels are set: the streams it may send on
void intake_host_sends();       // doorbell: the endpoints' send-queue entries (round robin) into per-stream message queues
bool load_fragments();          // fragments of queued messages into send buffers (host DMA)
void fragment_loaded(uint32_t stream, uint32_t buf);  // buf: the send buffer loaded (its packet is the stream's next if it is sent at once)
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
void post_packet(const uint8_t* start, uint32_t length, uint32_t route, uint8_t tag);  // tag: send buffer, or 0x80 | control buffer; the caller checked sq_free()
uint32_t sq_free();

// ---- receive side (grim_recv.cpp) ----
struct RxStream {
  uint32_t expected, nack_seq, unacked;
  uint32_t host, cap, slot;  // receive buffer of the message being delivered
  uint8_t nack_epoch, nacked, need, nack_why, queued, truncated, ep, pad;  // 32 bytes: rx[s] is one shift; ep: the message's endpoint
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


// A completion entry (kind_ep = kind | endpoint << 8) into that endpoint's queue (then its
// doorbell, if a device's); x = handler << 16 | peer endpoint << 8.
void post_cq(uint32_t kind_ep, uint32_t stream, uint32_t len, uint32_t tag, uint32_t slot, uint32_t x);
extern uint32_t bells_due;  // devices whose doorbell waits for host-DMA room (rung from hdma_completions)
void ring_bells();

}  // namespace grimfw
