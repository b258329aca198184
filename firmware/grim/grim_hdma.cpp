// Host DMA for the GRIM firmware: one ring shared by fragment loads (host -> SRAM), deliveries
// (SRAM -> host) and completion entries. Descriptors complete in order, so each carries the
// action to run when it completes.
#include "firmware/grim/grim_fw.h"

namespace grimfw {

alignas(16) nic::HdmaDesc hdma_ring[kHdmaN];
Action hdma_actions[kHdmaN];
uint32_t hdma_head = 0, hdma_done = 0, hdma_waking = 0;

uint32_t bells_due = 0;

namespace {
alignas(16) uint32_t cq_stage[kHdmaN][kCqEntryBytes / 4];  // completion entries on their way to the endpoint
}  // namespace

void hdma_init() { nic::hdma_setup(hdma_ring, kHdmaN); }

// A completion entry for endpoint e. A received message's is queued right behind its last
// delivery (descriptors complete in order, so the endpoint sees it once the data is in its
// memory, without a round trip through the firmware); a sent one's when the last fragment's
// load completed, after the packet went to the link. Called with a ring slot free: the
// delivery path keeps one spare, and a completion being handled freed one. A device's
// doorbell follows its entry (ring_bells if the ring is full).
void post_cq(uint32_t kind_ep, uint32_t stream, uint32_t len, uint32_t tag, uint32_t slot, uint32_t x) {
  const uint32_t kind = kind_ep & 0xFF, e = kind_ep >> 8;
  Endpoint& ep = *pin(&eps[e]);
  uint32_t* st = pin(cq_stage[hdma_head & (kHdmaN - 1)]);
  const uint32_t seq = ep.cq_seq + 1, at = ep.cq_next;
  ep.cq_seq = seq;
  st[0] = seq;
  st[1] = (kind << 24) | ((stream & (kChannels - 1)) << 16) | (x & 0xFF00) | (stream >> 2);
  st[2] = len;
  st[3] = tag;
  st[4] = slot;
  st[5] = x >> 16;
  ep.cq_next = at + kCqEntryBytes == ep.cq_end ? ep.cq_host : at + kCqEntryBytes;  // no multiply per entry
  hdma_queue(st, at, kCqEntryBytes, 0, ep.cq_what, seq);
  if (ep.bell) {
    ep.bell_val = seq;
    if (!((bells_due >> e) & 1)) ++hdma_waking;  // a doorbell due keeps kIrqHdmaDone on until it is queued
    bells_due |= 1u << e;
    ring_bells();
  }
}

// Each device's doorbell, a 4-byte write of its latest completion's seq (several entries may
// share one ring), once the host-DMA ring has room.
void ring_bells() {
  while (bells_due && hdma_space()) {
    const uint32_t e = static_cast<uint32_t>(__builtin_ctz(bells_due));
    bells_due &= bells_due - 1;
    --hdma_waking;
    const Endpoint& ep = eps[e];
    hdma_queue(&ep.bell_val, ep.bell, 4, 0, kActCq);
  }
  if (bells_due) work |= kWorkBell;
  else work &= ~kWorkBell;
}

void hdma_completions() {
  const uint32_t tail = nic::hdma_tail();
  while (hdma_done != tail) {
    const Action& a = hdma_actions[hdma_done & (kHdmaN - 1)];
    ++hdma_done;
    const uint32_t what = a.what, kind = what & 0xFF, stream = what >> 24;
    // A received message's entry was queued right behind its delivery (the engine serves
    // descriptors in order); a sent one's follows its packet onto the link.
    if (what != kActCq) --hdma_waking;
    if (kind == kActLoad) {
      fragment_loaded(stream, (what >> 16) & 0xFF);  // sends it at once if the link is free
      if (what & kActLast) post_cq(kCqSent | chan_owner[stream & (kChannels - 1)] << 8, stream, a.len, a.tag, 0, 0);
    } else if (kind == kActDeliver) {
      fragment_delivered((what >> 16) & 0xFF);
    } else if (what == (kActCq | kActLast)) {
      nic::host_interrupt(a.tag);  // the entry is in host memory now
    }
  }
  // Host-DMA room again: what waited for it (rare; one test here, none in the main loop).
  if (work & (kWorkIntake | kWorkBell)) {
    if (bells_due) ring_bells();
    if (work & kWorkIntake) intake_host_sends();
  }
}

}  // namespace grimfw
