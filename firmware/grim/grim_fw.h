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

inline int32_t diff(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b); }
inline uint32_t& w32(uint8_t* p, uint32_t off) { return *reinterpret_cast<uint32_t*>(p + off); }
inline uint32_t r32(const uint8_t* p, uint32_t off) { return *reinterpret_cast<const uint32_t*>(p + off); }
inline uint32_t now32() { return nic::nic_reg(nic::kRtcLo); }  // low word of this NIC's RTC

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
struct Msg { uint32_t host, len, off, tag; uint8_t next; };
struct TxStream {
  uint32_t base, next, hi, tail, loaded;  // oldest unacked, next to send, highest sent + 1, next to assign, loaded up to
  uint32_t deadline, hold_until, rto, backoff;
  uint8_t epoch, timing, held;
  uint8_t msg_head, msg_tail;
  uint8_t slot[kMaxWindow];              // send buffer of seq s at s & (window - 1)
};
extern SendBuf sbuf[kMaxSendBuffers];
extern TxStream tx[kStreams];
void send_init();
void intake_host_sends();       // doorbell: host send-queue entries into per-stream message queues
bool load_fragments();          // fragments of queued messages into send buffers (host DMA)
void fragment_loaded(uint32_t stream);
void schedule_link();           // round robin over streams with packets to send
void send_queue_completions();
void on_ack(uint32_t stream, uint32_t seq);
void on_nack(uint32_t stream, uint32_t seq, uint32_t epoch, uint32_t why);
void on_timer();
bool post_packet(const uint8_t* start, uint32_t length, uint32_t route, uint8_t tag);  // tag: send buffer, or 0x80 | control buffer
uint32_t sq_free();

// ---- receive side (grim_recv.cpp) ----
void recv_init();
void handle_received();
void flush_control();
void on_ack_timer();       // timer 1: the ACK delay is over
void deliver();
void fragment_delivered(uint32_t buf);
void control_sent(uint32_t ctrl);

// ---- host DMA (grim_hdma.cpp) ----
// What to do when a host-DMA descriptor completes (they complete in order), packed so that
// queueing one costs a few word stores: `what` = kind | kActLast | kActTruncated | buffer << 16
// | stream << 24, then the message's length, tag and receive-queue slot.
enum : uint32_t { kActNone, kActLoad, kActDeliver, kActCq, kActLast = 1u << 8, kActTruncated = 1u << 9 };
struct Action { uint32_t what, length, tag, slot; };
extern nic::HdmaDesc hdma_ring[kHdmaN];
extern Action hdma_actions[kHdmaN];
extern uint32_t hdma_head, hdma_done;
inline uint32_t hdma_space() { return kHdmaN - (hdma_head - hdma_done); }
inline void hdma_queue(const void* local, uint32_t host, uint32_t len, uint32_t control, uint32_t what, uint32_t length,
                       uint32_t tag, uint32_t slot) {
  const uint32_t i = hdma_head & (kHdmaN - 1);
  nic::HdmaDesc& d = hdma_ring[i];
  d.local = reinterpret_cast<uintptr_t>(local);
  d.host = host;
  d.length = len;
  d.control = control;
  Action& a = hdma_actions[i];
  a.what = what;
  a.length = length;
  a.tag = tag;
  a.slot = slot;
  nic::hdma_set_head(++hdma_head);
}
void hdma_init();
void hdma_completions();
void post_cq(uint32_t kind, uint32_t stream, uint32_t len, uint32_t tag, uint32_t slot);

}  // namespace grimfw
