#include "platform/host/msg_driver.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp::host {

namespace {
// Is `c` the kind the caller waits for (a truncated receive is a receive)?
bool is_kind(const MsgDriver::Completion& c, std::uint32_t kind) {
  return c.kind == kind || (kind == msg::kCqRecv && c.kind == msg::kCqRecvTruncated);
}
}  // namespace

MsgDriver::MsgDriver(Host& host, std::uint32_t mtu, std::uint32_t cq_entries)
    : HostInterfaceDriver(host), mtu_(mtu), cq_entries_(cq_entries) {
  if (mtu == 0 || mtu > msg::kMaxMtu) throw UserError(fmt::format("msg.mtu = {} is outside 1..{}", mtu, msg::kMaxMtu));
  if (cq_entries < msg::kSqEntries + msg::kRqEntries)
    throw UserError(fmt::format("completion queue of {} entries cannot hold the {} operations that may be outstanding", cq_entries,
                                msg::kSqEntries + msg::kRqEntries));
}

void MsgDriver::open() {
  attach(msg::kHifMagic, "messaging firmware");
  cq_ = alloc_dma_area(std::uint64_t{cq_entries_} * msg::kCqEntryBytes);
  hif_write(msg::kHifIrq, {host_.config().use_irq ? 1u : 0u});
  hif_write(msg::kHifCqHost, {static_cast<std::uint32_t>(cq_), cq_entries_, mtu_, 1u});  // cq_host, cq_entries, mtu, go
  ring_doorbell(0);
}

void MsgDriver::post_recv(std::uint64_t addr, std::uint32_t capacity) {
  call_cost();
  // A full receive queue frees up as completions arrive (kept, in order, for the caller).
  while (rq_.produced - recvs_done_ >= msg::kRqEntries) pending_.push_back(next_from_queue());
  post(rq_, {static_cast<std::uint32_t>(addr), capacity});
}

void MsgDriver::send(std::uint32_t dst, std::uint64_t addr, std::uint32_t length, std::uint32_t tag) {
  if (observer_) observer_("host_post", dst, tag, now_ps());
  call_cost();
  while (sq_.produced - sends_done_ >= msg::kSqEntries) pending_.push_back(next_from_queue());
  post(sq_, {static_cast<std::uint32_t>(addr), length, dst, tag});
  if (observer_) observer_("doorbell", dst, tag, now_ps());
}

MsgDriver::Completion MsgDriver::next_from_queue() {
  const std::uint64_t e = cq_ + ((cq_next_ - 1) % cq_entries_) * msg::kCqEntryBytes;
  wait_for_word(e, cq_next_);
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
  call_cost();
  return c;
}

MsgDriver::Completion MsgDriver::wait_for(std::uint32_t kind) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it)
    if (is_kind(*it, kind)) {
      Completion c = *it;
      pending_.erase(it);
      return c;
    }
  while (true) {
    Completion c = next_from_queue();
    if (is_kind(c, kind)) {
      call_cost();
      return c;
    }
    pending_.push_back(c);
  }
}

}  // namespace sanvp::host
