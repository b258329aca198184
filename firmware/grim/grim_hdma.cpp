// Host DMA for the GRIM firmware: one ring shared by fragment loads (host -> SRAM), deliveries
// (SRAM -> host) and completion entries. Descriptors complete in order, so each carries the
// action to run when it completes.
#include "firmware/grim/grim_fw.h"

namespace grimfw {

alignas(16) nic::HdmaDesc hdma_ring[kHdmaN];
Action hdma_actions[kHdmaN];
uint32_t hdma_head = 0, hdma_done = 0, hdma_waking = 0;

namespace {
alignas(16) uint32_t cq_stage[kHdmaN][kCqEntryBytes / 4];  // completion entries on their way to the host
uint32_t cq_seq = 0, cq_host = 0, cq_next = 0, cq_end = 0;  // the queue's host addresses: start, next entry, end
}  // namespace

void hdma_init() {
  cq_host = cq_next = hif[kHifCqHost / 4];
  const uint32_t entries = hif[kHifCqEntries / 4];
  cq_end = cq_host + (entries ? entries : 1) * kCqEntryBytes;  // once: the core has no multiplier
  nic::hdma_setup(hdma_ring, kHdmaN);
}

// A completion entry for the host. A received message's is queued right behind its last
// delivery (descriptors complete in order, so the host sees it once the data is in host
// memory, without a round trip through the firmware); a sent one's when the last fragment's
// load completed, after the packet went to the link. Called with a ring slot free: the
// delivery path keeps one spare, and a completion being handled freed one.
void post_cq(uint32_t kind, uint32_t stream, uint32_t len, uint32_t tag, uint32_t slot) {
  uint32_t* e = pin(cq_stage[hdma_head & (kHdmaN - 1)]);
  const uint32_t seq = cq_seq + 1, host = cq_next;
  cq_seq = seq;
  e[0] = seq;
  e[1] = (kind << 24) | ((stream & (kChannels - 1)) << 16) | (stream >> 2);
  e[2] = len;
  e[3] = tag;
  e[4] = slot;
  cq_next = host + kCqEntryBytes == cq_end ? cq_host : host + kCqEntryBytes;  // no multiply per entry
  hdma_queue(e, host, kCqEntryBytes, 0, hif[kHifIrq / 4] ? kActCq | kActLast : kActCq, seq);  // | kActLast: interrupt the host
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
      fragment_loaded(stream);  // sends it at once if the link is free
      if (what & kActLast) post_cq(kCqSent, stream, a.len, a.tag, 0);
    } else if (kind == kActDeliver) {
      fragment_delivered((what >> 16) & 0xFF);
    } else if (what == (kActCq | kActLast)) {
      nic::host_interrupt(a.tag);  // the entry is in host memory now
    }
  }
}

}  // namespace grimfw
