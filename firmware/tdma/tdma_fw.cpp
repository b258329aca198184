// TDMA firmware (tdma-realtime-myrinet.txt): clock synchronization (5.2) and slot sending (4.3,
// 4.4) in one image. Protocol firmware: it keeps time only with its own RTC and timers
// (fw::time_ns() is deleted); probes let the platform measure against global time.
//
// Every NIC walks its send table (tdma_proto.h), one entry per reserved slot of its own link in
// the TDMA cycle: lead ticks before an entry's start it wakes, builds the packet and queues it as
// a timed send, so the first byte leaves exactly when the RTC reaches the start whatever the
// firmware's latency. The start is the slot start plus the entry's offset: 0 for sync packets
// (their transmission time must be exact), -(slot - T_early) for reserved messages with early
// sending, +margin for best-effort packets. Per entry: two adds for its start (the host gives its
// position in the cycle in ticks: no 64-bit multiply), one staging word to check, one descriptor.
// Two banks of tables (contract v4): a new schedule takes effect at the cycle boundary the host
// names in the switch words, read two leads before each boundary (check_switch).
//
// Master (sync): its sync packets carry the RTC at which their first byte leaves. It never moves
// its RTC.
// Slave (sync): sleeps between entries with the receive interrupt enabled and reads its RTC as
// the first instruction after waking, so the time from a sync packet's last byte to that read is
// kRxReadCycles; it then moves its RTC by (timestamp + tx_ticks) - (RTC read). A packet that came
// while the firmware was busy has no fresh read: it is counted (stale) and not applied.
#include "firmware/tdma/tdma_proto.h"
#include "fw/fw.h"
#include "fw/hostif.h"
#include "fw/nic.h"
#include "fw/routes.h"

using namespace sanvp::tdma_abi;
namespace nic = fw::nic;

// The platform's mapper fills it (unused: the host gives each entry its reserved route).
FW_DEFINE_ROUTE_SET(64, 1024)

namespace {

constexpr uint32_t kRxN = 8;    // receive buffers
constexpr uint32_t kSendN = 8;  // send queue entries (at most two in use)
constexpr uint32_t kRxBytes = kMaxPayload + 32;  // header + payload, a multiple of 8
constexpr uint32_t kSmallBytes = 64;  // sync and best-effort packets are built here

volatile uint32_t* hif;  // the host-interface block (heap: 16 KB of table, not cleared at boot)
alignas(32) nic::SendDesc sq[kSendN];
alignas(8) nic::RxDesc rx_ring[kRxN];
alignas(16) nic::HdmaDesc hdma_ring[2];
alignas(16) uint32_t done_block[kDoneWords];
alignas(4) uint8_t small_buf[kSendN][kSmallBytes];
// The big buffers come from the heap, not .bss: crt0 clears .bss word by word, and ~150 KB of
// it would delay the boot by ~2.5 ms. Their contents need no clearing (a staging buffer's
// sequence word does, at init).
uint8_t* stage_ptr[kStageN];  // staging buffers; a pointer each, as indexing would multiply by kStageBytes
uint8_t* best_buf[2];         // best-effort packets: headers written, payload as found

struct Config {
  uint32_t role, lead, bank, cycles, tx_ticks, apply, done_host, first_slot;
  uint64_t first;
};
Config cfg;

// The active bank (tdma_proto.h): its table and cycle. The host fills the other one meanwhile.
struct Bank {
  const uint32_t* table;
  uint32_t entries, cycle_slots, cycle_ticks, tx_ticks;
};
Bank bank;
uint64_t switch_rtc = 0;   // a switch was made at this boundary: probe at the first wake from it on
uint32_t switch_slot = 0;
bool switch_probe = false;

uint32_t sq_head = 0, sq_checked = 0, rx_done = 0, node = 0;
uint32_t sent = 0, received = 0, applied = 0, refused = 0, data_sent = 0, stage_miss = 0, best_sent = 0, data_rx = 0, late = 0,
         stale = 0, data_seq = 0;

void put32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

uint32_t get32(const uint8_t* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) | (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

// The active bank's table does not change while it is active: read without volatile, so that
// the compiler keeps an entry's words in registers.
Bank read_bank(uint32_t b) {
  const uint32_t h = kHifBanks / 4 + (b & 1) * kBankWords;
  return Bank{const_cast<const uint32_t*>(&hif[(kHifTable + (b & 1) * kBankBytes) / 4]), hif[h + kBankEntries], hif[h + kBankCycleSlots],
              hif[h + kBankCycleTicks], hif[h + kBankTxTicks]};
}
uint32_t entry(uint32_t j, uint32_t w) { return bank.table[j * kEntryWords + w]; }

[[noreturn]] void finish(uint32_t error) {
  done_block[0] = kDoneMagic;
  done_block[kDoneError] = error;
  done_block[kDoneSent] = sent;
  done_block[kDoneReceived] = received;
  done_block[kDoneApplied] = applied;
  done_block[kDoneRefused] = refused;
  done_block[kDoneData] = data_sent;
  done_block[kDoneStageMiss] = stage_miss;
  done_block[kDoneBest] = best_sent;
  done_block[kDoneDataRx] = data_rx;
  done_block[kDoneLate] = late;
  done_block[kDoneStale] = stale;
  fw::hostif::post_completion(hdma_ring, done_block, sizeof(done_block), cfg.done_host);
  fw::hostif::drain_receiver(rx_ring, kRxN, rx_done);
}

// ---- receiving ----

// A sync packet in `buf` carries slot n and the master's RTC at its start; `r0` is this NIC's
// RTC read on waking for it (fresh: nothing else was pending, so it is the packet's own).
void take_sync(const uint8_t* buf, uint64_t r0, bool fresh) {
  const uint32_t n = get32(buf + 2);
  const uint64_t ts = (static_cast<uint64_t>(get32(buf + 6)) << 32) | get32(buf + 10);
  ++received;
  fw::probe(kProbeBefore, n);
  if (applied >= cfg.apply) return;
  if (!fresh) {  // came while the firmware was busy: no RTC read of its own
    ++stale;
    return;
  }
  const int64_t delta = static_cast<int64_t>(ts + cfg.tx_ticks - r0);
  if (delta >= -0x7FFFFFFFll && delta <= 0x7FFFFFFFll) {
    nic::rtc_adjust(static_cast<int32_t>(delta));  // atomic: the time since the read does not matter
  } else {
    nic::set_rtc(ts + cfg.tx_ticks + (nic::rtc() - r0));  // far off (first sync): one more tick of error
  }
  ++applied;
  fw::probe(kProbeAfter, n + 1);
}

void take_packets(uint64_t r0, bool fresh) {
  for (const uint32_t tail = nic::rx_tail(); rx_done != tail; ++rx_done) {
    nic::RxDesc& d = rx_ring[rx_done & (kRxN - 1)];
    const uint8_t* buf = reinterpret_cast<const uint8_t*>(d.buffer);  // no multiply by the buffer size
    const uint32_t len = d.status & nic::kRxLenMask;
    if (!(d.status & nic::kRxCrcErr) && len >= 2) {
      const uint32_t type = (static_cast<uint32_t>(buf[0]) << 8) | buf[1];
      if (type == kSyncType && len >= kPayload && cfg.role == kRoleSlave) take_sync(buf, r0, fresh);
      else if (type == kDataType) ++data_rx;
    }
    fresh = false;
    d.status = nic::kRxOwn;
  }
  nic::rx_kick();
}

// Sleeps until an enabled event, taking packets. A packet already pending before the WAIT
// arrived while the firmware was busy: its RTC read is not fresh. Returns the RTC read on waking.
uint64_t sleep_once() {
  const uint32_t pre = nic::irq_status();
  const uint32_t why = nic::wait();
  const uint64_t r0 = nic::rtc();  // first thing after waking: kRxReadCycles after a packet's end
  hif[kHifClock / 4] = static_cast<uint32_t>(r0);  // the host paces its staging by it
  if (switch_probe && r0 >= switch_rtc) {  // before any adjustment: the platform dates the boundary from it
    fw::probe(kProbeSwitch, switch_slot);
    switch_probe = false;
  }
  nic::irq_ack(why);
  if (why & nic::kIrqRxDone) take_packets(r0, !(pre & nic::kIrqRxDone));
  return r0;
}

// Sleeps until the RTC reaches `t` (a sync may move it meanwhile: the timer follows).
void wait_until(uint64_t t) {
  nic::timer_arm_at(0, t);
  while (sleep_once() < t) {
  }
}

// ---- sending ----

void count_refusals() {
  for (const uint32_t tail = nic::sq_tail(); sq_checked != tail; ++sq_checked) {
    const nic::SendDesc& d = sq[sq_checked & (kSendN - 1)];
    if (d.status & nic::kSendDescRefused) {
      ++refused;
      fw::probe(kProbeRefused, d.start_lo);
    }
    if (d.status & nic::kSendDescLate) ++late;
  }
}

// Writes the route bytes of entry j and the header in front of `payload`; returns the packet.
uint8_t* build(uint32_t j, uint8_t* payload, uint32_t type, uint32_t n, uint32_t rlen) {
  uint8_t* h = payload - kDataHeader;
  h[0] = static_cast<uint8_t>(type >> 8);
  h[1] = static_cast<uint8_t>(type);
  put32(h + 2, n);
  put32(h + 6, entry(j, 5));
  put32(h + 10, node);
  uint8_t* p = h - rlen;
  const uint32_t r0 = entry(j, 6), r1 = entry(j, 7);
  for (uint32_t i = 0; i < rlen; ++i) p[i] = static_cast<uint8_t>((i < 4 ? r0 << (8 * i) : r1 << (8 * (i - 4))) >> 24);
  return p;
}

void queue(const uint8_t* p, uint32_t len, uint32_t rlen, uint64_t at, uint32_t flags) {
  nic::send_desc_at(sq[sq_head & (kSendN - 1)], p, len, rlen, at, flags);
  nic::sq_set_head(++sq_head);
  ++sent;
}

// Entry j of slot n, starting at `at`.
void send_entry(uint32_t j, uint32_t n, uint64_t at) {
  const uint32_t w2 = entry(j, 2), kind = w2 >> 24, rlen = w2 & 0xFF, bytes = entry(j, 4);
  uint8_t* small = small_buf[sq_head & (kSendN - 1)];
  if (kind == kKindSync) {
    uint8_t* p = small;
    const uint32_t r0 = entry(j, 6), r1 = entry(j, 7);
    for (uint32_t i = 0; i < rlen; ++i) p[i] = static_cast<uint8_t>((i < 4 ? r0 << (8 * i) : r1 << (8 * (i - 4))) >> 24);
    uint8_t* q = p + rlen;
    q[0] = static_cast<uint8_t>(kSyncType >> 8);
    q[1] = static_cast<uint8_t>(kSyncType);
    put32(q + 2, n);
    put32(q + 6, static_cast<uint32_t>(at >> 32));
    put32(q + 10, static_cast<uint32_t>(at));
    fw::probe(kProbeSlot, n);
    queue(p, rlen + kPayload, rlen, at, 0);
  } else if (kind == kKindData) {
    uint8_t* buf = stage_ptr[data_seq & (kStageN - 1)];
    const uint32_t m = data_seq++;
    if (get32(buf) != m + 1) {  // not (completely) in SRAM: a miss, never a late send
      ++stage_miss;
      fw::probe(kProbeStageMiss, m);
      return;
    }
    fw::probe(kProbeStaged, m);
    queue(build(j, buf + kStageHead, kDataType, n, rlen), rlen + kDataHeader + bytes, rlen, at, nic::kSendDescLateOk);
    ++data_sent;
  } else {
    queue(build(j, best_buf[best_sent & 1] + kStageHead, kBestType, n, rlen), rlen + kDataHeader + bytes, rlen, at, 0);
    ++best_sent;
  }
}

bool bank_ok(const Bank& b, uint32_t role) {
  if (b.entries > kMaxEntries || (b.entries && !b.cycle_slots)) return false;
  for (uint32_t j = 0; j < b.entries; ++j) {
    const uint32_t w2 = b.table[j * kEntryWords + 2], kind = w2 >> 24, rlen = w2 & 0xFF;
    if (kind < kKindSync || kind > kKindBest || rlen == 0 || rlen > kMaxRoute || b.table[j * kEntryWords + 4] > kMaxPayload) return false;
    if (kind == kKindSync && role != kRoleMaster) return false;
  }
  return true;
}

// Two leads before the boundary of the next cycle (before any of its sends is queued, and with a
// lead to spare for the switch's work before its first send's wake): the switch words. A switch
// to the bank they name happens only at the boundary they name.
void check_switch(uint64_t next, uint32_t nslot) {
  wait_until(next - 2 * static_cast<uint64_t>(cfg.lead));
  const uint32_t at = hif[kHifSwitchAt / 4];
  if (at == 0 || at - 1 != nslot) return;
  bank = read_bank(hif[kHifSwitchBank / 4]);
  if (!bank_ok(bank, cfg.role)) finish(kErrConfig);
  cfg.tx_ticks = bank.tx_ticks;
  hif[kHifSwitched / 4] = at;
  switch_rtc = next;
  switch_slot = nslot;
  switch_probe = true;
}

// Cycle by cycle: entry j's start is the cycle's boundary plus its position and offset (the host
// gives both in ticks: no multiply here).
[[noreturn]] void run() {
  uint64_t cstart = cfg.first;
  uint32_t cslot = cfg.first_slot;
  if (bank.entries) {
    const uint64_t at0 = (entry(0, 2) & kEntryNegative) ? cstart + entry(0, 0) - entry(0, 3) : cstart + entry(0, 0) + entry(0, 3);
    if (at0 <= nic::rtc() + cfg.lead) finish(kErrStartPast);
  }
  nic::irq_mask(nic::kIrqTimer0 | nic::kIrqRxDone);
  for (uint32_t c = 0; c < cfg.cycles; ++c) {
    for (uint32_t j = 0; j < bank.entries; ++j) {
      const uint32_t w2 = entry(j, 2), off = entry(j, 3);
      const uint64_t slot_start = cstart + entry(j, 0);
      const uint64_t at = (w2 & kEntryNegative) ? slot_start - off : slot_start + off;
      wait_until(at - cfg.lead);
      send_entry(j, cslot + entry(j, 1), at);
      count_refusals();
    }
    const uint64_t next = cstart + bank.cycle_ticks;
    const uint32_t nslot = cslot + bank.cycle_slots;
    if (c + 1 < cfg.cycles) check_switch(next, nslot);
    cstart = next;
    cslot = nslot;
  }
  nic::irq_mask(nic::kIrqRxDone);
  while (received < hif[kHifSyncs / 4]) sleep_once();  // a slave: the remaining syncs
  nic::irq_mask(nic::kIrqSendQueue | nic::kIrqRxDone);
  while (nic::sq_tail() != sq_head) {  // until the last packet has left
    const uint32_t why = nic::wait();
    nic::irq_ack(why);
    if (why & nic::kIrqRxDone) take_packets(0, false);
  }
  count_refusals();
  finish(kErrNone);
}

bool read_config() {
  cfg.role = hif[kHifRole / 4];
  cfg.lead = hif[kHifLead / 4];
  cfg.bank = hif[kHifBank / 4];
  cfg.cycles = hif[kHifCycles / 4];
  cfg.first = (static_cast<uint64_t>(hif[kHifFirstHi / 4]) << 32) | hif[kHifFirstLo / 4];
  cfg.apply = hif[kHifApply / 4];
  cfg.done_host = hif[kHifDoneHost / 4];
  cfg.first_slot = hif[kHifFirstSlot / 4];
  if (cfg.role != kRoleMaster && cfg.role != kRoleSlave) return false;
  bank = read_bank(cfg.bank);
  cfg.tx_ticks = bank.tx_ticks;
  return cfg.bank <= 1 && cfg.cycles && bank_ok(bank, cfg.role);
}

}  // namespace

int main() {
  hif = static_cast<volatile uint32_t*>(malloc(kHifBytes));
  for (uint32_t i = 1; i < kHifTable / 4; ++i) hif[i] = 0;  // the header words; the table is the host's
  hif[0] = kHifMagic;
  hif[kHifVersion / 4] = kVersion;
  hif[kHifMaxEntries / 4] = kMaxEntries;
  uint8_t* stage = static_cast<uint8_t*>(malloc(kStageN * kStageBytes));
  for (uint32_t i = 0; i < kStageN; ++i) {
    stage_ptr[i] = stage + i * kStageBytes;
    put32(stage_ptr[i], 0);
  }
  best_buf[0] = static_cast<uint8_t*>(malloc(2 * kStageBytes));
  best_buf[1] = best_buf[0] + kStageBytes;
  uint8_t* rx_mem = static_cast<uint8_t*>(malloc(kRxN * kRxBytes));
  hif[kHifStage / 4] = reinterpret_cast<uintptr_t>(stage);
  node = nic::node_id();
  nic::hdma_setup(hdma_ring, 2);
  nic::sq_setup(sq, kSendN);
  fw::hostif::publish_and_wait(hif, kHifGo / 4);
  if (!read_config()) finish(kErrConfig);
  for (uint32_t i = 0; i < kRxN; ++i) {
    rx_ring[i].buffer = reinterpret_cast<uintptr_t>(rx_mem + i * kRxBytes);
    rx_ring[i].status = nic::kRxOwn;
  }
  // Dropping (not back-pressuring) when short of buffers: a receiver must never hold the link.
  nic::rx_setup(rx_ring, kRxN, kRxBytes, nic::RxPolicy::kDrop);
  nic::rx_enable();
  nic::irq_ack(0xFFFFFFFFu);
  run();
}
