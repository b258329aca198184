// FBS firmware: feedback-based synchronization of NIC slot clocks through stop/go flow control
// (fbs-nic-synchronization.txt). Every NIC runs a slot clock from its own oscillator (the RTC;
// no global time), sends its part of the synchronizing schedule (SSS or HSS, computed by the
// host and loaded through the host interface, fbs_proto.h) at its slot boundaries with timed
// sends, and pauses its slot clock while its packet is held by STOP (section 3.1): when the send
// engine was held for d ticks, the RTC moves back by d. Timers and timed sends are RTC
// deadlines, so the pause moves every later slot boundary with it.
//
// Between rounds the slots are the application's (idle here): the firmware sleeps from the end
// of a round to the last slot before the next one. Slot boundaries are marked with probes
// (measurement only: the platform records global time beside them).
#include "firmware/fbs/fbs_proto.h"
#include "fw/hostif.h"
#include "fw/nic.h"
#include "fw/routes.h"

using namespace sanvp::fbs_abi;
namespace nic = fw::nic;

// Routes from the network's mapper (the platform), written into SRAM before the core starts:
// per destination, the primary route; to the node itself, the U-turn.
FW_DEFINE_ROUTE_SET(1024, 16384)

namespace {

constexpr uint32_t kRxN = 4;     // receive buffers (sync packets are only counted)
constexpr uint32_t kSendN = 4;   // packet buffers and send-queue entries (at most two are in use)
// Wake-ups: slot boundaries (timer) and GO (the end of a hold). Received packets are recycled at
// every boundary instead of on their own interrupt: at most one arrives per slot.
constexpr uint32_t kEvents = nic::kIrqTimer0 | nic::kIrqLinkGo;
// Each send buffer starts with a header area: the packet's route bytes, type and slot number,
// right-aligned so that the payload follows; a sync slot's header is built once, from the
// schedule, and copied in by words (the per-slot path must fit a 6 us slot on a 66 MHz core).
constexpr uint32_t kHdrBytes = 32;
constexpr uint32_t kHdrWords = kHdrBytes / 4;

alignas(16) volatile uint32_t hif[kHifBytes / 4];
alignas(32) nic::SendDesc sq[kSendN];
alignas(8) nic::RxDesc rx_ring[kRxN];
alignas(16) nic::HdmaDesc hdma_ring[2];
alignas(16) uint32_t done_block[kDoneWords];
uint32_t* send_buf[kSendN];  // kHdrBytes of header area, then the payload
uint8_t* rx_mem[kRxN];

// This NIC's packet of one sync slot: the header area's words and where the packet starts in it
// (kNoSend: no packet in that slot).
struct SlotHeader {
  uint32_t words[kHdrWords];
  uint32_t offset, route_len;
};
SlotHeader* headers;  // per sync slot

struct Config {
  uint32_t slot_ticks, packet_len, sync_slots, period, rounds, probe_every, done_host, free_run_after;
  uint64_t start;
};
Config cfg;

uint32_t sq_head = 0, sq_checked = 0;
uint32_t rx_done = 0;
uint32_t blocked_seen = 0;  // SEND_BLOCKED already turned into pauses
uint32_t pauses = 0, paused_ticks = 0, refused = 0, sent = 0;

// The send engine was held by STOP for `d` more ticks: pause the slot clock by as much.
void account_pause() {
  const uint32_t b = nic::send_blocked_ticks();
  const uint32_t d = b - blocked_seen;
  if (d == 0) return;
  nic::rtc_adjust(-static_cast<int32_t>(d));
  blocked_seen = b;
  ++pauses;
  paused_ticks += d;
  fw::probe(kProbePause, d);
}

void recycle_rx() {
  const uint32_t tail = nic::rx_tail();
  while (rx_done != tail) rx_ring[rx_done++ & (kRxN - 1)].status = nic::kRxOwn;
  nic::rx_kick();
}

// Descriptors the engine completed since the last look (in order): count the refused ones.
void count_refusals() {
  for (const uint32_t tail = nic::sq_tail(); sq_checked != tail; ++sq_checked) {
    nic::SendDesc& d = sq[sq_checked & (kSendN - 1)];
    if (d.status & nic::kSendDescRefused) {
      ++refused;
      fw::probe(kProbeRefused, d.start_lo);
    }
  }
}

// Builds the header of every sync slot from the schedule. False when the schedule names a
// destination the route table does not hold, or a route too long for the header area or packet.
bool build_headers() {
  for (uint32_t j = 0; j < cfg.sync_slots; ++j) {
    SlotHeader& h = headers[j];
    h.offset = kNoSend;
    const uint32_t dst = hif[kHifTable / 4 + j];
    if (dst == kNoSend) continue;
    const fw::Route r = fw::route(dst);
    if (!r.bytes || r.len + 4 > kHdrBytes || r.len + 6 > cfg.packet_len) return false;
    h.offset = kHdrBytes - (r.len + 4);
    h.route_len = r.len;
    uint8_t* p = reinterpret_cast<uint8_t*>(h.words) + h.offset;
    for (uint32_t i = 0; i < r.len; ++i) p[i] = r.bytes[i];
    p[r.len] = static_cast<uint8_t>(kPacketType >> 8);
    p[r.len + 1] = static_cast<uint8_t>(kPacketType);
    p[r.len + 2] = static_cast<uint8_t>(j >> 8);
    p[r.len + 3] = static_cast<uint8_t>(j);
  }
  return true;
}

// Queues this NIC's packet of sync slot `j` (if any) to start exactly at RTC `at`.
void queue_send(uint32_t j, uint64_t at) {
  const SlotHeader& h = headers[j];
  if (h.offset == kNoSend) return;
  const uint32_t k = sq_head & (kSendN - 1);
  uint32_t* b = send_buf[k];
  for (uint32_t w = h.offset / 4; w < kHdrWords; ++w) b[w] = h.words[w];
  nic::send_desc_at(sq[k], reinterpret_cast<uint8_t*>(b) + h.offset, cfg.packet_len, h.route_len, at);
  nic::sq_set_head(++sq_head);
  ++sent;
}

// Sleeps until the RTC reaches `deadline` with every held tick accounted. At every GO and timer
// expiry the ticks held so far (SEND_BLOCKED counts a hold in progress up to the read) move the
// RTC back; if that puts the deadline ahead again, the timer is re-armed at the moved boundary.
// The rest of a hold still in progress is accounted at its GO. (Not waiting for the GO: STOP can
// be in force with no byte held, e.g. before a timed start, and waiting would make the firmware
// late for the next slot's send.)
void wait_boundary(uint64_t deadline) {
  nic::timer_arm_at(0, deadline);
  while (true) {
    const uint32_t why = nic::wait();
    nic::irq_ack(why);
    account_pause();
    if (!(why & nic::kIrqTimer0)) continue;
    if (nic::rtc() >= deadline) return;
    nic::timer_arm_at(0, deadline);
  }
}

// Slots from slot n (at position pos of its period) to the next boundary that needs a wake-up:
// the sync slots and the round's end (positions 0..S), the period's last slot (it queues the next
// round's first packet), every probe_every-th slot if asked, and the end of the run.
uint32_t slots_to_wake(uint32_t n, uint32_t pos, uint32_t total) {
  uint32_t step = 1;
  if (pos + 1 > cfg.sync_slots && pos + 2 < cfg.period) step = cfg.period - 1 - pos;
  if (cfg.probe_every) {
    const uint32_t to_probe = cfg.probe_every - n % cfg.probe_every;
    if (to_probe < step) step = to_probe;
  }
  return step < total - n ? step : total - n;
}

bool syncing(uint32_t round) { return cfg.free_run_after == kNever || round < cfg.free_run_after; }

[[noreturn]] void finish(uint32_t error) {
  done_block[0] = kDoneMagic;
  done_block[kDoneError] = error;
  done_block[kDonePauses] = pauses;
  done_block[kDonePausedTicks] = paused_ticks;
  done_block[kDoneRefused] = refused;
  done_block[kDoneReceived] = nic::rx_tail();
  done_block[kDoneSent] = sent;
  fw::hostif::post_completion(hdma_ring, done_block, sizeof(done_block), cfg.done_host);
  fw::hostif::drain_receiver(rx_ring, kRxN, rx_done);
}

// The slot loop: n is the slot whose boundary comes next, at RTC `deadline`, at position pos of
// round `round`'s period.
[[noreturn]] void run_slots() {
  const uint32_t total = cfg.rounds * cfg.period;
  uint64_t deadline = cfg.start;
  if (cfg.start <= nic::rtc()) finish(kErrStartPast);
  if (syncing(0)) queue_send(0, deadline);
  uint32_t n = 0, pos = 0, round = 0;
  while (n < total) {
    wait_boundary(deadline);
    fw::probe(kProbeSlot, n);
    // The packet of the next slot, if it is a sync slot of a synchronizing round.
    const uint32_t next_pos = pos + 1 == cfg.period ? 0 : pos + 1;
    const uint32_t next_round = next_pos == 0 ? round + 1 : round;
    if (next_pos < cfg.sync_slots && n + 1 < total && syncing(next_round)) queue_send(next_pos, deadline + cfg.slot_ticks);
    recycle_rx();
    count_refusals();
    const uint32_t step = slots_to_wake(n, pos, total);
    n += step;
    // No multiply for one slot: the LANai has none, and __muldi3 costs ~120 instructions.
    deadline += step == 1 ? cfg.slot_ticks : static_cast<uint64_t>(step) * cfg.slot_ticks;
    pos += step;
    if (pos >= cfg.period) pos -= cfg.period, ++round;
  }
  wait_boundary(deadline);
  fw::probe(kProbeSlot, n);
  count_refusals();
  finish(kErrNone);
}

bool read_config() {
  cfg.slot_ticks = hif[kHifSlotTicks / 4];
  cfg.packet_len = hif[kHifPacketLen / 4];
  cfg.sync_slots = hif[kHifSyncSlots / 4];
  cfg.period = hif[kHifPeriod / 4];
  cfg.rounds = hif[kHifRounds / 4];
  cfg.start = (static_cast<uint64_t>(hif[kHifStartHi / 4]) << 32) | hif[kHifStartLo / 4];
  cfg.probe_every = hif[kHifProbeEvery / 4];
  cfg.done_host = hif[kHifDoneHost / 4];
  cfg.free_run_after = hif[kHifFreeRunAfter / 4];
  return cfg.slot_ticks > 0 && cfg.packet_len >= kMinPacket && cfg.packet_len <= kMaxPacket && cfg.sync_slots > 0 &&
         cfg.sync_slots <= kMaxSyncSlots && cfg.period >= cfg.sync_slots + 2 && cfg.rounds > 0;
}

bool alloc_buffers() {
  for (uint32_t i = 0; i < kSendN; ++i)
    if (!(send_buf[i] = static_cast<uint32_t*>(malloc(kHdrBytes + kMaxPacket)))) return false;
  if (!(headers = static_cast<SlotHeader*>(malloc(sizeof(SlotHeader) * kMaxSyncSlots)))) return false;
  for (uint32_t i = 0; i < kRxN; ++i) {
    if (!(rx_mem[i] = static_cast<uint8_t*>(malloc(kMaxPacket)))) return false;
    rx_ring[i].buffer = reinterpret_cast<uintptr_t>(rx_mem[i]);
    rx_ring[i].status = nic::kRxOwn;
  }
  return true;
}

}  // namespace

int main() {
  hif[0] = kHifMagic;
  hif[kHifVersion / 4] = kVersion;
  hif[kHifMaxSlots / 4] = kMaxSyncSlots;
  nic::hdma_setup(hdma_ring, 2);
  nic::sq_setup(sq, kSendN);
  fw::hostif::publish_and_wait(hif, kHifGo / 4);
  const bool ok = read_config();
  if (!alloc_buffers()) finish(kErrSram);
  if (!ok) finish(kErrConfig);
  if (!build_headers()) finish(kErrNoRoute);
  // Dropping (not back-pressuring) when short of buffers: a receiver must never hold the link.
  nic::rx_setup(rx_ring, kRxN, kMaxPacket, nic::RxPolicy::kDrop);
  nic::rx_enable();
  blocked_seen = nic::send_blocked_ticks();
  nic::irq_mask(kEvents);
  run_slots();
}
