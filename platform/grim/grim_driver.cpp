#include "platform/grim/grim_driver.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp::grim_host {

void check_config(const GrimConfig& c) {
  auto range = [](const char* what, std::uint32_t v, std::uint32_t lo, std::uint32_t hi) {
    if (v < lo || v > hi) throw UserError(fmt::format("grim: {} = {} is outside {}..{}", what, v, lo, hi));
  };
  range("mtu", c.mtu, 1, grim::kMaxMtu);
  range("rto_us", c.rto_us, 1, 10000000);
  range("backoff_us", c.backoff_us, 1, 10000000);
  range("pool", c.pool, 1, grim::kMaxPool);
  range("window", c.window, 2, grim::kMaxWindow);
  range("send_buffers", c.send_buffers, 1, grim::kMaxSendBuffers);
  range("channels", c.channels, 0, (1u << grim::kChannels) - 1);
  range("endpoints", c.endpoints, 1, grim::kMaxEndpoints);
  if (c.window & (c.window - 1)) throw UserError(fmt::format("grim: window = {} is not a power of two", c.window));
}

GrimDriver::GrimDriver(host::Host& host, const GrimConfig& cfg, std::uint32_t cq_entries)
    : HostInterfaceDriver(host), cfg_(cfg), cq_entries_(cq_entries) {
  check_config(cfg);
  if (cq_entries < grim::kSqEntries + grim::kRqEntries)
    throw UserError(fmt::format("grim: a completion queue of {} entries cannot hold the {} operations that may be outstanding", cq_entries,
                                grim::kSqEntries + grim::kRqEntries));
}

void GrimDriver::open() {
  attach(grim::kHifMagic, "GRIM firmware");
  const std::uint32_t version = host_.pio_read(hif(grim::kHifVersion));
  if (version != grim::kVersion)
    throw SimError(fmt::format("{}: GRIM firmware speaks interface version {}, this host {}", host_.name(), version, grim::kVersion));
  cq_ = alloc_dma_area(std::uint64_t{cq_entries_} * grim::kCqEntryBytes);
  // cq_host .. irq in one PIO burst, then go.
  hif_write(grim::kHifCqHost, {static_cast<std::uint32_t>(cq_), cq_entries_, cfg_.mtu, cfg_.rto_us, cfg_.backoff_us, cfg_.pool,
                               cfg_.window, cfg_.send_buffers, host_.config().use_irq ? 1u : 0u});
  if (cfg_.channels || cfg_.endpoints > 1) hif_write(grim::kHifChannels, {cfg_.channels, cfg_.endpoints});
  hif_write(grim::kHifGo, {1});
  ring_doorbell(0);
}

void GrimDriver::post_recv(std::uint64_t addr, std::uint32_t capacity) {
  call_cost();
  while (rq_.produced - recvs_done_ >= grim::kRqEntries) pending_.push_back(next_from_queue());
  post(rq_, {static_cast<std::uint32_t>(addr), capacity});
}

void GrimDriver::send_to(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, std::uint64_t addr, std::uint32_t length,
                         std::uint32_t tag, std::uint32_t handler) {
  call_cost();
  while (sq_.produced - sends_done_ >= grim::kSqEntries) pending_.push_back(next_from_queue());
  // Out-of-range fields are passed on as such: the firmware refuses them with an error completion.
  const std::uint32_t to = (handler & 0xFF) << 24 | (dst_endpoint & 0xFF) << 16 | (dst & 0xFF) << 8 | (channel & 0xFF);
  post(sq_, {static_cast<std::uint32_t>(addr), length, to, tag});
}

GrimDriver::Completion GrimDriver::next_from_queue() {
  const std::uint64_t e = cq_ + ((cq_next_ - 1) % cq_entries_) * grim::kCqEntryBytes;
  wait_for_word(e, cq_next_);
  host::HostMemory& m = host_.memory();
  Completion c;
  const std::uint32_t w1 = m.read_be32(e + 4);
  c.kind = w1 >> 24;
  c.channel = (w1 >> 16) & 0xFF;
  c.peer_endpoint = (w1 >> 8) & 0xFF;
  c.peer = w1 & 0xFF;
  c.length = m.read_be32(e + 8);
  c.tag = m.read_be32(e + 12);
  c.slot = m.read_be32(e + 16);
  c.handler = m.read_be32(e + 20);
  ++cq_next_;
  if (c.kind == grim::kCqSent || c.kind == grim::kCqSendError) ++sends_done_;
  else ++recvs_done_;
  return c;
}

GrimDriver::Completion GrimDriver::wait_completion() {
  if (pending_.empty()) {  // else one kept by a blocked post or wait_for: no new driver call
    pending_.push_back(next_from_queue());
    call_cost();
  }
  const Completion c = pending_.front();
  pending_.pop_front();
  return c;
}

bool GrimDriver::poll_completion(Completion& c) {
  if (pending_.empty()) {
    const std::uint64_t e = cq_ + ((cq_next_ - 1) % cq_entries_) * grim::kCqEntryBytes;
    if (host_.memory().read_be32(e) != cq_next_) return false;
    pending_.push_back(next_from_queue());
    call_cost();
  }
  c = pending_.front();
  pending_.pop_front();
  return true;
}

bool GrimDriver::completion_waiting() {
  if (!cq_) return false;
  const std::uint64_t e = cq_ + ((cq_next_ - 1) % cq_entries_) * grim::kCqEntryBytes;
  return host_.memory().read_be32(e) == cq_next_;
}

GrimDriver::Completion GrimDriver::wait_for(std::uint32_t kind) {
  const auto is = [kind](const Completion& c) { return c.kind == kind || (kind == grim::kCqRecv && c.kind == grim::kCqRecvTruncated); };
  const auto it = std::find_if(pending_.begin(), pending_.end(), is);
  if (it == pending_.end()) {
    Completion c;
    while (!is(c = next_from_queue())) pending_.push_back(c);  // kept, in order, for later calls
    call_cost();
    return c;
  }
  const Completion c = *it;
  pending_.erase(it);
  return c;
}

Stats GrimDriver::stats() {
  Stats s{};
  for (std::uint32_t i = 0; i < grim::kStatWords; ++i) s[i] = host_.pio_read(hif(grim::kHifStats + 4 * i));
  return s;
}

}  // namespace sanvp::grim_host
