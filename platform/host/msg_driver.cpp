#include "platform/host/msg_driver.hpp"
#include "platform/core/sim_time.hpp"

#include <fmt/format.h>

#include "hw/nic/memory_map.hpp"
#include "platform/core/error.hpp"

namespace sanvp::host {

namespace {
constexpr std::uint32_t kDoorbell = nic::map::kNicRegBase + nic::map::nic::kDoorbell;
constexpr std::uint32_t kMailbox = nic::map::kNicRegBase + nic::map::nic::kMailbox;
}  // namespace

MsgDriver::MsgDriver(Host& host, std::uint32_t mtu, std::uint32_t cq_entries) : host_(host), mtu_(mtu), cq_entries_(cq_entries) {
  if (mtu == 0 || mtu > msg::kMaxMtu) throw UserError(fmt::format("msg.mtu = {} is outside 1..{}", mtu, msg::kMaxMtu));
  if (cq_entries < msg::kSqEntries + msg::kRqEntries)
    throw UserError(fmt::format("completion queue of {} entries cannot hold the {} operations that may be outstanding", cq_entries,
                                msg::kSqEntries + msg::kRqEntries));
}

void MsgDriver::open() {
  // The firmware publishes its host-interface address in the mailbox once it has booted.
  const Time poll = 1 * kUs;
  const Time give_up = now_ps() + 100 * kMs;
  while ((hif_ = host_.pio_read(kMailbox)) == 0) {
    if (now_ps() > give_up) throw SimError(fmt::format("{}: the NIC firmware never published its host interface", host_.name()));
    sc_core::wait(sc_core::sc_time::from_value(poll));
  }
  if (host_.pio_read(hif_) != msg::kHifMagic)
    throw SimError(fmt::format("{}: no messaging firmware at 0x{:x} (bad magic)", host_.name(), hif_));
  cq_ = host_.alloc(std::uint64_t{cq_entries_} * msg::kCqEntryBytes);
  host_.memory().watch(cq_, cq_ + std::uint64_t{cq_entries_} * msg::kCqEntryBytes);
  host_.pio_write(hif(msg::kHifIrq), {host_.config().use_irq ? 1u : 0u});
  host_.pio_write(hif(msg::kHifCqHost), {static_cast<std::uint32_t>(cq_), cq_entries_, mtu_, 1u});  // cq_host, cq_entries, mtu, go
  host_.pio_write(kDoorbell, {0});
}

void MsgDriver::post_recv(std::uint64_t addr, std::uint32_t capacity) {
  sc_core::wait(sc_core::sc_time::from_value(host_.config().call));
  // A full receive queue frees up as completions arrive (kept, in order, for the caller).
  while (rq_prod_ - recvs_done_ >= msg::kRqEntries) pending_.push_back(next_from_queue());
  const std::uint32_t slot = msg::kHifRq + (rq_prod_ % msg::kRqEntries) * msg::kRqEntryBytes;
  host_.pio_write(hif(slot), {static_cast<std::uint32_t>(addr), capacity});
  ++rq_prod_;
  host_.pio_write(hif(msg::kHifRqProd), {rq_prod_});
  host_.pio_write(kDoorbell, {rq_prod_});
}

void MsgDriver::send(std::uint32_t dst, std::uint64_t addr, std::uint32_t length, std::uint32_t tag) {
  if (observer_) observer_("host_post", dst, tag, now_ps());
  sc_core::wait(sc_core::sc_time::from_value(host_.config().call));
  while (sq_prod_ - sends_done_ >= msg::kSqEntries) pending_.push_back(next_from_queue());
  const std::uint32_t slot = msg::kHifSq + (sq_prod_ % msg::kSqEntries) * msg::kSqEntryBytes;
  // Write-combined: the entry and the producer index are two PCI transactions, then the doorbell.
  host_.pio_write(hif(slot), {static_cast<std::uint32_t>(addr), length, dst, tag});
  ++sq_prod_;
  host_.pio_write(hif(msg::kHifSqProd), {sq_prod_});
  host_.pio_write(kDoorbell, {sq_prod_});
  if (observer_) observer_("doorbell", dst, tag, now_ps());
}

MsgDriver::Completion MsgDriver::next_from_queue() {
  const std::uint64_t e = cq_ + ((cq_next_ - 1) % cq_entries_) * msg::kCqEntryBytes;
  if (host_.config().use_irq) {
    // Sleep until the NIC's interrupt (raised once the entry is in host memory) reaches us.
    while (host_.memory().read_be32(e) != cq_next_) sc_core::wait(host_.interrupt_event());
  } else {
    const Time poll = host_.config().poll;
    const Time began = now_ps();
    while (host_.memory().read_be32(e) != cq_next_) sc_core::wait(host_.memory().watched_write());
    // The polling loop notices the entry at its first check at or after the write.
    const Time written = now_ps();
    const Time k = (written - began + poll - 1) / poll;
    const Time seen = began + k * poll;
    if (seen > written) sc_core::wait(sc_core::sc_time::from_value(seen - written));
  }
  Completion c;
  const std::uint32_t w1 = host_.memory().read_be32(e + 4);
  c.kind = w1 >> 24;
  c.peer = w1 & 0xFFFFFFu;
  c.length = host_.memory().read_be32(e + 8);
  c.tag = host_.memory().read_be32(e + 12);
  c.seen = now_ps();
  ++cq_next_;
  if (c.kind == msg::kCqSent) ++sends_done_;
  else ++recvs_done_;
  if (observer_) observer_(c.kind == msg::kCqSent ? "host_sent" : "host_recv", c.peer, c.tag, c.seen);
  return c;
}

MsgDriver::Completion MsgDriver::wait_completion() {
  if (!pending_.empty()) {
    Completion c = pending_.front();
    pending_.pop_front();
    return c;
  }
  Completion c = next_from_queue();
  sc_core::wait(sc_core::sc_time::from_value(host_.config().call));
  return c;
}

MsgDriver::Completion MsgDriver::wait_for(std::uint32_t kind) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it)
    if (it->kind == kind || (kind == msg::kCqRecv && it->kind == msg::kCqRecvTruncated)) {
      Completion c = *it;
      pending_.erase(it);
      return c;
    }
  while (true) {
    Completion c = next_from_queue();
    if (c.kind == kind || (kind == msg::kCqRecv && c.kind == msg::kCqRecvTruncated)) {
      sc_core::wait(sc_core::sc_time::from_value(host_.config().call));
      return c;
    }
    pending_.push_back(c);
  }
}

}  // namespace sanvp::host
