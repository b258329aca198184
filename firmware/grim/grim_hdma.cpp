// Host DMA for the GRIM firmware: one ring shared by fragment loads (host -> SRAM), deliveries
// (SRAM -> host) and completion entries. Descriptors complete in order, so each carries the
// action to run when it completes.
#include "firmware/grim/grim_fw.h"

namespace grimfw {

alignas(16) nic::HdmaDesc hdma_ring[kHdmaN];
Action hdma_actions[kHdmaN];
uint32_t hdma_head = 0, hdma_done = 0;

namespace {
alignas(16) uint32_t cq_stage[kHdmaN][kCqEntryBytes / 4];  // completion entries on their way to the host
uint32_t cq_seq = 0, cq_index = 0, cq_entries = 1, cq_host = 0;
}  // namespace

void hdma_init() {
  cq_host = hif[kHifCqHost / 4];
  cq_entries = hif[kHifCqEntries / 4];
  if (cq_entries == 0) cq_entries = 1;
  nic::hdma_setup(hdma_ring, kHdmaN);
}

// A completion entry for the host. Called with a free ring slot: the completion being handled
// freed one, and the queueing paths keep one spare.
void post_cq(uint32_t kind, uint32_t stream, uint32_t len, uint32_t tag, uint32_t slot) {
  uint32_t* e = cq_stage[hdma_head & (kHdmaN - 1)];
  e[0] = ++cq_seq;
  e[1] = (kind << 24) | ((stream & (kChannels - 1)) << 16) | (stream >> 2);
  e[2] = len;
  e[3] = tag;
  e[4] = slot;
  const uint32_t host = cq_host + cq_index * kCqEntryBytes;
  if (++cq_index == cq_entries) cq_index = 0;
  hdma_queue(e, host, kCqEntryBytes, 0, kActCq, 0, cq_seq, 0);
}

void hdma_completions() {
  const uint32_t tail = nic::hdma_tail();
  while (hdma_done != tail) {
    const Action& a = hdma_actions[hdma_done & (kHdmaN - 1)];
    ++hdma_done;
    const uint32_t what = a.what, kind = what & 0xFF, stream = what >> 24;
    if (kind == kActLoad) {
      fragment_loaded(stream);
      // The last fragment is in SRAM: the host's send buffer is free again.
      if (what & kActLast) post_cq(kCqSent, stream, a.length, a.tag, 0);
    } else if (kind == kActDeliver) {
      fragment_delivered((what >> 16) & 0xFF);
      if (what & kActLast) post_cq((what & kActTruncated) ? kCqRecvTruncated : kCqRecv, stream, a.length, a.tag, a.slot);
    } else if (kind == kActCq) {
      if (hif[kHifIrq / 4]) nic::host_interrupt(a.tag);  // the entry is in host memory now
    }
  }
}

}  // namespace grimfw
