#include "platform/grim/grim_workload.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"

namespace sanvp::grim_host {

namespace {

// Byte i of the message tagged `tag` (the tag names source, channel and stream index).
std::uint8_t pattern(std::uint32_t tag, std::uint64_t i) {
  std::uint64_t x = (std::uint64_t{tag} << 32) ^ (i >> 3);
  return static_cast<std::uint8_t>(splitmix64(x) >> (8 * (i & 7)));
}

void fill(host::Host& h, std::uint64_t addr, std::uint32_t tag, std::uint32_t size) {
  std::vector<std::uint8_t> b(size);
  for (std::uint32_t i = 0; i < size; ++i) b[i] = pattern(tag, i);
  h.memory().write(addr, b.data(), size);
}

// Index of the first wrong byte, or -1.
std::int64_t first_bad(host::Host& h, std::uint64_t addr, std::uint32_t tag, std::uint32_t size) {
  std::vector<std::uint8_t> b(size);
  h.memory().read(addr, b.data(), size);
  for (std::uint32_t i = 0; i < size; ++i)
    if (b[i] != pattern(tag, i)) return i;
  return -1;
}

class NodeRun {
 public:
  NodeRun(GrimDriver& d, int node, const Plan& p, const WorkloadOptions& o, NodeScore& s, HostCredits& c)
      : drv_(d), h_(d.host()), node_(static_cast<std::uint32_t>(node)), plan_(p), o_(o), sc_(s), credits_(c),
        sends_(p.sends[static_cast<std::size_t>(node)]), expected_(p.expected[static_cast<std::size_t>(node)]) {}

  void run() {
    sc_.phase = "opening the GRIM endpoint";
    drv_.open();
    for (std::uint32_t i = 0; i < grim::kSqEntries; ++i) free_sbufs_.push_back(h_.alloc(o_.max_size));
    for (std::uint32_t i = 0; i < o_.recv_buffers && expected_; ++i) spare_rbufs_.push_back(h_.alloc(o_.max_size));
    if (o_.recv_start) sc_core::wait(sc_core::sc_time::from_value(o_.recv_start));
    sc_.phase = "sending and receiving";
    while (!spare_rbufs_.empty()) post_spare();
    while (sc_.sent + sc_.send_errors < sends_.size() || sc_.received < expected_) {
      send_more();
      if (!credit_wait_) {
        on_completion(drv_.wait_completion());
        continue;
      }
      // The next message waits for a credit, which is no completion of ours: take completions
      // as they come, else sleep until credits return (or the next poll).
      GrimDriver::Completion c;
      if (drv_.poll_completion(c)) on_completion(c);
      else sc_core::wait(sc_core::sc_time::from_value(kUs), credits_.returned(node_));
    }
    sc_.done = true;
    sc_.finished = now_ps();
    sc_.phase = "done";
  }

 private:
  void post_spare() {
    const std::uint64_t a = spare_rbufs_.back();
    spare_rbufs_.pop_back();
    rbuf_of_slot_[posted_++] = a;
    drv_.post_recv(a, o_.max_size);
  }

  // Never blocks on a full send queue: a host that stops taking completions would stop
  // re-posting receive buffers, and two such hosts would starve each other.
  void send_more() {
    credit_wait_ = false;
    while (next_send_ < sends_.size() && drv_.sends_outstanding() < grim::kSqEntries && !free_sbufs_.empty()) {
      const Planned& m = sends_[next_send_];
      if (credits_.enabled() && !credits_.take(node_, m.dst, m.size)) {  // injection policing: in plan order
        if (!credit_wait_seen_ || waited_send_ != next_send_) ++credits_.waits;  // once per blocked message
        credit_wait_seen_ = true;
        waited_send_ = next_send_;
        credit_wait_ = true;
        return;
      }
      ++next_send_;
      const std::uint32_t tag = message_tag(node_, m.dst, m.channel, m.index);
      const std::uint64_t a = free_sbufs_.back();
      free_sbufs_.pop_back();
      sbuf_of_tag_[tag] = a;
      fill(h_, a, tag, m.size);
      drv_.send(m.dst, m.channel, a, m.size, tag);
    }
  }

  void on_completion(const GrimDriver::Completion& c) {
    if (c.kind == grim::kCqSent || c.kind == grim::kCqSendError) {
      auto it = sbuf_of_tag_.find(c.tag);
      if (it == sbuf_of_tag_.end()) {
        sc_.fail(fmt::format("n{}: send completion for unknown tag {:#x}", node_, c.tag));
        ++sc_.unexpected;
        return;
      }
      free_sbufs_.push_back(it->second);
      sbuf_of_tag_.erase(it);
      if (c.kind == grim::kCqSent) ++sc_.sent;
      else ++sc_.send_errors;
      return;
    }
    on_recv(c);
  }

  void on_recv(const GrimDriver::Completion& c) {
    auto it = rbuf_of_slot_.find(c.slot);
    if (it == rbuf_of_slot_.end()) {
      sc_.fail(fmt::format("n{}: receive completion names slot {}, which was not posted", node_, c.slot));
      ++sc_.unexpected;
      return;
    }
    const std::uint64_t a = it->second;
    rbuf_of_slot_.erase(it);
    check(c, a);
    if (o_.recv_delay) sc_core::wait(sc_core::sc_time::from_value(o_.recv_delay));
    if (credits_.enabled()) credits_.give(c.peer, node_, c.length);  // consumed: the sender may send again
    spare_rbufs_.push_back(a);
    post_spare();
  }

  void check(const GrimDriver::Completion& c, std::uint64_t addr) {
    ++sc_.received;
    sc_.bytes += c.length;
    const std::uint32_t key = c.peer << 8 | c.channel;
    const auto& sizes_it = plan_.streams[node_].find(key);
    const std::uint32_t idx = tag_index(c.tag);
    std::uint32_t& next = next_index_[key];
    if (c.kind != grim::kCqRecv || sizes_it == plan_.streams[node_].end() || c.tag != message_tag(c.peer, node_, c.channel, idx) ||
        idx >= sizes_it->second.size()) {
      ++sc_.unexpected;
      sc_.fail(fmt::format("n{}: unexpected completion kind {} from n{} channel {} tag {:#x}", node_, c.kind, c.peer, c.channel, c.tag));
      return;
    }
    if (idx != next) {
      ++(idx < next ? sc_.duplicates : sc_.out_of_order);
      sc_.fail(fmt::format("n{}: from n{} channel {}: message {} arrived, expected {}", node_, c.peer, c.channel, idx, next));
      next = std::max(next, idx + 1);
      return;
    }
    ++next;
    const std::uint32_t size = sizes_it->second[idx];
    const std::int64_t bad = c.length == size ? first_bad(h_, addr, c.tag, size) : 0;
    if (bad >= 0) {
      ++sc_.corrupt;
      sc_.fail(fmt::format("n{}: message {} from n{} channel {} ({} bytes, got {}) differs at byte {}", node_, idx, c.peer, c.channel,
                           size, c.length, bad));
    }
  }

  GrimDriver& drv_;
  host::Host& h_;
  const std::uint32_t node_;
  const Plan& plan_;
  const WorkloadOptions& o_;
  NodeScore& sc_;
  HostCredits& credits_;
  bool credit_wait_ = false;  // the next planned message waits for a credit
  bool credit_wait_seen_ = false;
  std::size_t waited_send_ = 0;  // the last message that had to wait (counted once)
  const std::vector<Planned>& sends_;
  const std::uint64_t expected_;
  std::size_t next_send_ = 0;
  std::vector<std::uint64_t> free_sbufs_, spare_rbufs_;
  std::map<std::uint32_t, std::uint64_t> sbuf_of_tag_, rbuf_of_slot_;
  std::map<std::uint32_t, std::uint32_t> next_index_;
  std::uint32_t posted_ = 0;
};

}  // namespace

HostCredits::HostCredits(int nodes, std::uint32_t credits, std::uint32_t mtu)
    : nodes_(static_cast<std::uint32_t>(nodes)), credits_(credits), mtu_(mtu ? mtu : grim::kDefaultMtu),
      left_(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(nodes), credits) {
  for (int n = 0; n < nodes; ++n) returned_.push_back(std::make_unique<sc_core::sc_event>());
}

bool HostCredits::take(std::uint32_t src, std::uint32_t dst, std::uint32_t bytes) {
  const std::uint32_t n = packets(bytes);
  if (n > credits_) throw UserError(fmt::format("grim: a {}-byte message needs {} credits, more than the {} a destination has", bytes, n, credits_));
  if (left(src, dst) < n) return false;
  left(src, dst) -= n;
  return true;
}

void HostCredits::give(std::uint32_t src, std::uint32_t dst, std::uint32_t bytes) {
  left(src, dst) += packets(bytes);
  returned_[src]->notify(sc_core::SC_ZERO_TIME);
}

Plan make_plan(const WorkloadOptions& o) {
  if (o.nodes < 2 || o.nodes > static_cast<int>(grim::kMaxNodes))
    throw UserError(fmt::format("grim: {} nodes is outside 2..{}", o.nodes, grim::kMaxNodes));
  if (o.channels < 1 || o.channels > grim::kChannels) throw UserError(fmt::format("grim: {} channels is outside 1..{}", o.channels, grim::kChannels));
  if (o.min_size < 1 || o.min_size > o.max_size) throw UserError(fmt::format("grim: sizes {}..{} are not a range", o.min_size, o.max_size));
  const auto n = static_cast<std::size_t>(o.nodes);
  const int senders = o.senders < 0 ? o.nodes : std::min(o.senders, o.nodes);
  Plan p;
  p.sends.resize(n);
  p.streams.resize(n);
  p.expected.assign(n, 0);
  for (int src = 0; src < senders; ++src) {
    Rng rng(o.seed, fmt::format("grim.plan.n{}", src));
    for (std::uint32_t k = 0; k < o.messages; ++k) {
      auto dst = static_cast<std::uint32_t>(rng.below(n - 1));
      if (dst >= static_cast<std::uint32_t>(src)) ++dst;
      const auto ch = static_cast<std::uint32_t>(rng.below(o.channels));
      const auto size = o.min_size + static_cast<std::uint32_t>(rng.below(o.max_size - o.min_size + 1));
      auto& stream = p.streams[dst][static_cast<std::uint32_t>(src) << 8 | ch];
      p.sends[static_cast<std::size_t>(src)].push_back(Planned{dst, ch, static_cast<std::uint32_t>(stream.size()), size});
      stream.push_back(size);
      ++p.expected[dst];
    }
  }
  return p;
}

void run_node(GrimDriver& drv, int node, const Plan& plan, const WorkloadOptions& o, NodeScore& score, HostCredits& credits) {
  NodeRun(drv, node, plan, o, score, credits).run();
}

}  // namespace sanvp::grim_host
