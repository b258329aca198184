// Basic messaging firmware for the sanvp NIC: host-to-host messages of any size, fragmented
// into packets of at most `mtu` data bytes, delivered in order (one path per node pair, no
// retransmission). The host side is platform/host/msg_driver.*; the contract is msg_proto.h.
//
// Event loop: sleep in WAIT until the doorbell, a host-DMA completion, or a sent or received
// packet; then run only the handlers that event can unblock:
//   send side     SQ entry -> per fragment: host DMA into a send buffer -> send DMA -> free;
//                 a kCqSent completion once the last fragment is in SRAM (host buffer free)
//   receive side  RX buffer -> host DMA into the posted receive buffer -> buffer back to the
//                 NIC; a kCqRecv completion after the last fragment
// Host-DMA descriptors complete in order, so each carries an action run on its completion.
// The NIC core is slow (66 MHz by default): the hot paths use word accesses and no division.
#include "firmware/msg/msg_proto.h"
#include "fw/nic.h"
#include "fw/routes.h"

using namespace sanvp::msg;
namespace nic = fw::nic;

// Written by the network's mapper (the platform) into SRAM before the core starts.
FW_DEFINE_ROUTE_TABLE()

namespace {

constexpr uint32_t kHdmaN = 64;      // host-DMA ring (power of two)
constexpr uint32_t kRxN = 8;         // receive buffers (power of two)
constexpr uint32_t kSendBufs = 4;    // send buffers (fragments in flight, power of two)
constexpr uint32_t kRoutePad = 32;   // route bytes sit right before the (word-aligned) type field
constexpr uint32_t kEvents = nic::kIrqDoorbell | nic::kIrqHdmaDone | nic::kIrqSendDone | nic::kIrqRxDone;

alignas(16) nic::HdmaDesc hdma_ring[kHdmaN];
alignas(8) nic::RxDesc rx_ring[kRxN];
alignas(16) volatile uint32_t hif[kHifBytes / 4];  // the host writes parts of it by PIO
alignas(16) uint32_t cq_stage[kHdmaN][4];           // completion entries on their way to the host

enum : uint8_t { kActNone, kActLoad, kActDeliver, kActCq };
struct Action { uint8_t kind, buf, last, truncated; uint32_t peer, length, tag; };
Action actions[kHdmaN];
uint32_t hdma_head = 0, hdma_done = 0;

enum : uint8_t { kFree, kLoading, kReady, kSending };
struct SendBuf { uint8_t* mem; uint8_t* start; uint32_t length, route; uint8_t state; };
SendBuf sbuf[kSendBufs];
uint8_t ready_q[kSendBufs];
uint32_t ready_head = 0, ready_tail = 0, free_bufs = kSendBufs;
int sending = -1;

uint8_t* rx_mem[kRxN];
uint32_t rx_proc = 0;  // receive descriptors handled
uint32_t mtu = kDefaultMtu;

// Send-queue state: the message being fragmented.
uint32_t sq_cons = 0;
bool have_msg = false;
uint32_t m_host, m_len, m_dst, m_tag, m_id, m_off;
uint32_t msg_counter = 0;
uint32_t my_node = 0;

// Per-source receive state: where the current message of each source goes.
struct RecvState { uint32_t host, cap; };
RecvState rstate[kMaxNodes];
uint32_t rq_cons = 0;

uint32_t cq_seq = 0, cq_index = 0, cq_entries = 1, cq_host = 0;
uint32_t bad_packets = 0;

inline uint32_t& w32(uint8_t* p, uint32_t off) { return *reinterpret_cast<uint32_t*>(p + off); }
inline uint32_t r32(const uint8_t* p, uint32_t off) { return *reinterpret_cast<const uint32_t*>(p + off); }
inline uint32_t r16(const uint8_t* p, uint32_t off) { return *reinterpret_cast<const uint16_t*>(p + off); }

inline uint32_t hdma_space() { return kHdmaN - (hdma_head - hdma_done); }

// Queues one host-DMA descriptor with its completion action; the caller checked space.
inline void hdma_queue(const void* local, uint32_t host, uint32_t len, bool to_sram, const Action& act) {
  const uint32_t i = hdma_head & (kHdmaN - 1);
  nic::HdmaDesc& d = hdma_ring[i];
  d.local = reinterpret_cast<uintptr_t>(local);
  d.host = host;
  d.length = len;
  d.control = to_sram ? nic::kHdmaToSram : 0;
  actions[i] = act;
  nic::hdma_set_head(++hdma_head);
}

// Posts a completion entry to the host's completion queue (needs one host-DMA slot).
void post_cq(uint32_t kind, uint32_t peer, uint32_t len, uint32_t tag) {
  uint32_t* e = cq_stage[hdma_head & (kHdmaN - 1)];
  e[0] = ++cq_seq;
  e[1] = (kind << 24) | peer;
  e[2] = len;
  e[3] = tag;
  const uint32_t host = cq_host + cq_index * kCqEntryBytes;
  if (++cq_index == cq_entries) cq_index = 0;
  Action a{};
  a.kind = kActCq;
  a.tag = cq_seq;
  hdma_queue(e, host, kCqEntryBytes, false, a);
}

void hdma_completions() {
  const uint32_t tail = nic::hdma_tail();
  while (hdma_done != tail) {
    const Action a = actions[hdma_done & (kHdmaN - 1)];
    ++hdma_done;
    if (a.kind == kActLoad) {
      sbuf[a.buf].state = kReady;
      ready_q[ready_tail++ & (kSendBufs - 1)] = a.buf;
      // The last fragment is in SRAM: the host's send buffer is free again. (Its slot was
      // reserved when the fragment was queued.)
      if (a.last) post_cq(kCqSent, a.peer, a.length, a.tag);
    } else if (a.kind == kActCq) {
      if (hif[kHifIrq / 4]) nic::host_interrupt(a.tag);  // the entry is in host memory now
    } else if (a.kind == kActDeliver) {
      rx_ring[a.buf].status = nic::kRxOwn;  // the buffer goes back to the NIC
      nic::rx_kick();
      if (a.last) post_cq(a.truncated ? kCqRecvTruncated : kCqRecv, a.peer, a.length, a.tag);
    }
  }
}

// Starts the send DMA on the next ready fragment; `done` says the previous one has left.
void drive_send_engine(bool done) {
  if (done && sending >= 0) {
    sbuf[sending].state = kFree;
    ++free_bufs;
    sending = -1;
  }
  if (sending < 0 && ready_head != ready_tail) {
    const uint8_t b = ready_q[ready_head++ & (kSendBufs - 1)];
    SendBuf& s = sbuf[b];
    s.state = kSending;
    sending = b;
    nic::send_start(s.start, s.length, s.route);
  }
}

// Starts loading fragments of queued messages into free send buffers.
void feed_send_queue() {
  while (free_bufs) {
    if (!have_msg) {
      if (sq_cons == hif[kHifSqProd / 4]) return;
      const volatile uint32_t* e = &hif[kHifSq / 4 + (sq_cons & (kSqEntries - 1)) * (kSqEntryBytes / 4)];
      m_host = e[0];
      m_len = e[1];
      m_dst = e[2];
      m_tag = e[3];
      m_id = (my_node << 20) | (msg_counter++ & 0xFFFFF);
      m_off = 0;
      have_msg = true;
      ++sq_cons;
    }
    if (hdma_space() < 3) return;  // the load, its completion entry and one for the receive side
    uint32_t b = 0;
    while (sbuf[b].state != kFree) ++b;
    SendBuf& s = sbuf[b];
    const sanvp::route_abi::RouteEntry& r = fw::route_to(m_dst);
    const uint32_t n = m_len - m_off < mtu ? m_len - m_off : mtu;
    const bool last = m_off + n == m_len;
    uint8_t* p = s.mem + kRoutePad;
    for (uint32_t i = 0; i < r.len; ++i) p[i - r.len] = r.hops[i];
    w32(p, 0) = (uint32_t{kMsgPacketType} << 16) | my_node;
    w32(p, kOffMsgId) = m_id;
    w32(p, kOffTag) = m_tag;
    w32(p, kOffTotal) = m_len;
    w32(p, kOffFragment) = m_off;
    w32(p, kOffFlags) = (m_off == 0 ? kFlagFirst : 0) | (last ? kFlagLast : 0);
    s.start = p - r.len;
    s.length = r.len + kOffData + n;
    s.route = r.len;
    s.state = kLoading;
    --free_bufs;
    Action a{};
    a.kind = kActLoad;
    a.buf = static_cast<uint8_t>(b);
    a.last = last;
    a.peer = m_dst;
    a.length = m_len;
    a.tag = m_tag;
    hdma_queue(p + kOffData, m_host + m_off, n, true, a);
    m_off += n;
    if (last) have_msg = false;
  }
}

void handle_received() {
  const uint32_t filled = nic::rx_tail();
  while (rx_proc != filled) {
    const uint32_t i = rx_proc & (kRxN - 1);
    const uint32_t st = rx_ring[i].status;
    const uint32_t len = st & nic::kRxLenMask;
    const uint8_t* p = rx_mem[i];
    if ((st & (nic::kRxCrcErr | nic::kRxTrunc)) || len < kOffData || r16(p, 0) != kMsgPacketType) {
      ++bad_packets;  // not delivered as good; the buffer goes straight back
      rx_ring[i].status = nic::kRxOwn;
      nic::rx_kick();
      ++rx_proc;
      continue;
    }
    const uint32_t src = r16(p, kOffSrc) & (kMaxNodes - 1), flags = r32(p, kOffFlags);
    const uint32_t total = r32(p, kOffTotal), off = r32(p, kOffFragment);
    RecvState& rs = rstate[src];
    if (flags & kFlagFirst) {
      if (rq_cons == hif[kHifRqProd / 4]) return;  // no receive buffer posted yet: retried on the doorbell
      if (hdma_space() < 2) return;
      const volatile uint32_t* e = &hif[kHifRq / 4 + (rq_cons & (kRqEntries - 1)) * (kRqEntryBytes / 4)];
      rs.host = e[0];
      rs.cap = e[1];
      ++rq_cons;
    } else if (hdma_space() < 2) {
      return;  // retried when a host DMA completes
    }
    const uint32_t n = len - kOffData;
    uint32_t deliver = 0;
    if (off < rs.cap) deliver = rs.cap - off < n ? rs.cap - off : n;
    Action a{};
    a.kind = kActDeliver;
    a.buf = static_cast<uint8_t>(i);
    a.last = (flags & kFlagLast) ? 1 : 0;
    a.truncated = total > rs.cap ? 1 : 0;
    a.peer = src;
    a.length = total > rs.cap ? rs.cap : total;
    a.tag = r32(p, kOffTag);
    hdma_queue(p + kOffData, rs.host + off, deliver, false, a);
    ++rx_proc;
  }
}

}  // namespace

int main() {
  my_node = nic::node_id();
  hif[0] = kHifMagic;
  hif[kHifSqEntries / 4] = kSqEntries;
  hif[kHifRqEntries / 4] = kRqEntries;
  hif[kHifMtu / 4] = kDefaultMtu;
  nic::hdma_setup(hdma_ring, kHdmaN);
  nic::irq_mask(kEvents);
  nic::publish(reinterpret_cast<uintptr_t>(hif));
  while (!hif[kHifGo / 4]) nic::irq_ack(nic::wait());
  mtu = hif[kHifMtu / 4];
  if (mtu == 0 || mtu > kMaxMtu) mtu = kDefaultMtu;
  cq_host = hif[kHifCqHost / 4];
  cq_entries = hif[kHifCqEntries / 4];
  if (cq_entries == 0) cq_entries = 1;
  const uint32_t rx_bytes = (kOffData + mtu + 7) & ~7u;
  for (uint32_t i = 0; i < kRxN; ++i) {
    rx_mem[i] = static_cast<uint8_t*>(malloc(rx_bytes));
    rx_ring[i].buffer = reinterpret_cast<uintptr_t>(rx_mem[i]);
    rx_ring[i].status = nic::kRxOwn;
    if (!rx_mem[i]) {
      printf("msg_fw: out of SRAM for receive buffers of mtu %u\n", static_cast<unsigned>(mtu));
      exit(2);
    }
  }
  for (uint32_t i = 0; i < kSendBufs; ++i) {
    sbuf[i].mem = static_cast<uint8_t*>(malloc(kRoutePad + kOffData + mtu));
    sbuf[i].state = kFree;
    if (!sbuf[i].mem) {
      printf("msg_fw: out of SRAM for send buffers of mtu %u\n", static_cast<unsigned>(mtu));
      exit(2);
    }
  }
  nic::rx_setup(rx_ring, kRxN, rx_bytes, nic::RxPolicy::kBackPressure);
  nic::rx_enable();
  uint32_t ev = nic::kIrqDoorbell;  // the host may have posted before go
  while (true) {
    if (ev & nic::kIrqHdmaDone) hdma_completions();
    if (ev & (nic::kIrqSendDone | nic::kIrqHdmaDone)) drive_send_engine(ev & nic::kIrqSendDone);
    if (ev & (nic::kIrqRxDone | nic::kIrqDoorbell | nic::kIrqHdmaDone)) handle_received();
    if (ev & (nic::kIrqDoorbell | nic::kIrqHdmaDone | nic::kIrqSendDone)) feed_send_queue();
    ev = nic::wait();
    nic::irq_ack(ev);
  }
}
