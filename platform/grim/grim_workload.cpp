#include "platform/grim/grim_workload.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "platform/grim/grim_am.hpp"

namespace sanvp::grim_host {

namespace {

// Byte i of the message tagged `tag` (the tag names source, channel and stream index).
std::uint8_t pattern(std::uint32_t tag, std::uint64_t i) {
  std::uint64_t x = (std::uint64_t{tag} << 32) ^ (i >> 3);
  return static_cast<std::uint8_t>(splitmix64(x) >> (8 * (i & 7)));
}

void fill(GrimEndpoint& ep, std::uint64_t addr, std::uint32_t tag, std::uint32_t size) {
  std::vector<std::uint8_t> b(size);
  for (std::uint32_t i = 0; i < size; ++i) b[i] = pattern(tag, i);
  ep.write_memory(addr, b.data(), size);
}

// Index of the first wrong byte, or -1.
std::int64_t first_bad(GrimEndpoint& ep, std::uint64_t addr, std::uint32_t tag, std::uint32_t size) {
  std::vector<std::uint8_t> b(size);
  ep.read_memory(addr, b.data(), size);
  for (std::uint32_t i = 0; i < size; ++i)
    if (b[i] != pattern(tag, i)) return i;
  return -1;
}

const char* const kAmCheck = "grim.check";
const char* const kAmIncr = "grim.incr";

class NodeRun {
 public:
  NodeRun(GrimEndpoint& d, int node, const Plan& p, const WorkloadOptions& o, NodeScore& s, HostCredits& c)
      : drv_(d), node_(static_cast<std::uint32_t>(node)), ep_(d.endpoint()), slot_(ep_slot(node_, ep_)), plan_(p), o_(o), sc_(s),
        credits_(c), sends_(p.sends[slot_]), expected_(p.expected[slot_]) {}

  void run() {
    sc_.phase = "opening the GRIM endpoint";
    drv_.open();
    if (sends_.empty() && !expected_) return finish();  // an idle endpoint (a host whose devices carry the traffic)
    for (std::uint32_t i = 0; i < grim::kSqEntries; ++i) free_sbufs_.push_back(drv_.alloc(o_.max_size));
    for (std::uint32_t i = 0; i < o_.recv_buffers && (expected_ || o_.am); ++i) spare_rbufs_.push_back(drv_.alloc(o_.max_size));
    if (o_.recv_start) sc_core::wait(sc_core::sc_time::from_value(o_.recv_start));
    while (!spare_rbufs_.empty()) post_spare();
    if (o_.am) register_handlers();
    sc_.phase = "sending and receiving";
    while (sc_.sent + sc_.send_errors < sends_.size() || sc_.received + sc_.am_unknown < expected_) {
      send_more();
      if (!credit_wait_) {
        on_completion(drv_.wait_completion());
        continue;
      }
      // The next message waits for a credit, which is no completion of ours: take completions
      // as they come, else sleep until credits return (or the next poll).
      GrimCompletion c;
      if (drv_.poll_completion(c)) on_completion(c);
      else sc_core::wait(sc_core::sc_time::from_value(kUs), credits_.returned(node_));
    }
    finish();
  }

 private:
  void finish() {
    sc_.done = true;
    sc_.finished = now_ps();
    sc_.phase = "done";
  }

  // Active messages: both handlers run the scoreboard check; "grim.incr" also counts (a remote
  // increment). Registered with the master, which sends back the table; AMs that come before it
  // are kept by the AM layer and run afterwards, in order.
  void register_handlers() {
    sc_.phase = "registering active-message handlers";
    AmSetup s;
    s.participants = plan_.participants;
    s.channel = static_cast<std::uint32_t>(__builtin_ctz(endpoint_channels(ep_, o_.devices)));  // its lowest: the host's reserved channel 0
    am_ = std::make_unique<GrimAm>(drv_, node_, s);
    am_->handle(kAmCheck, [this](const AmCall& a) { consume(a.src, a.src_endpoint, a.channel, a.length, a.tag, a.addr, grim::kCqRecv, false); });
    am_->handle(kAmIncr, [this](const AmCall& a) { consume(a.src, a.src_endpoint, a.channel, a.length, a.tag, a.addr, grim::kCqRecv, true); });
    am_->start();
    while (!am_->ready()) on_completion(drv_.wait_completion());
    sc_.am_handlers = static_cast<std::uint32_t>(am_->table().size());
  }

  void post_spare() {
    const std::uint64_t a = spare_rbufs_.back();
    spare_rbufs_.pop_back();
    rbuf_of_slot_[posted_++] = a;
    drv_.post_recv(a, o_.max_size);
  }

  // The id a planned message names: a registered handler, or for a bogus one an id nobody has.
  std::uint32_t handler_of(const Planned& m) const {
    if (!o_.am) return 0;
    if (m.bogus) return grim::kAmMaxHandler;
    return am_->id(m.index & 1 ? kAmIncr : kAmCheck);
  }

  // Never blocks on a full send queue: a program that stops taking completions would stop
  // re-posting receive buffers, and two such programs would starve each other.
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
      const std::uint32_t tag = m.bogus ? 0xFFF00000u | static_cast<std::uint32_t>(next_send_) : message_tag(node_, m.dst, m.channel, m.index, m.dst_ep);
      const std::uint64_t a = free_sbufs_.back();
      free_sbufs_.pop_back();
      sbuf_of_tag_[tag] = a;
      fill(drv_, a, tag, m.size);
      drv_.send_to(m.dst, m.dst_ep, m.channel, a, m.size, tag, handler_of(m));
    }
  }

  void on_completion(const GrimCompletion& c) {
    if (c.kind == grim::kCqSent || c.kind == grim::kCqSendError) {
      if (am_ && am_->on_completion(c, 0)) return;  // the AM layer's own message
      auto it = sbuf_of_tag_.find(c.tag);
      if (it == sbuf_of_tag_.end()) {
        sc_.fail(fmt::format("n{}.e{}: send completion for unknown tag {:#x}", node_, ep_, c.tag));
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

  void on_recv(const GrimCompletion& c) {
    auto it = rbuf_of_slot_.find(c.slot);
    if (it == rbuf_of_slot_.end()) {
      sc_.fail(fmt::format("n{}.e{}: receive completion names slot {}, which was not posted", node_, ep_, c.slot));
      ++sc_.unexpected;
      return;
    }
    const std::uint64_t a = it->second;
    rbuf_of_slot_.erase(it);
    if (!o_.am || c.handler == 0) return consume(c.peer, c.peer_endpoint, c.channel, c.length, c.tag, a, c.kind, false);
    // An active message: its handler consumes it (now, or once the table is known); registry
    // traffic and unknown ids give the buffer back at once.
    const std::uint64_t unknown = am_ ? am_->unknown : 0;
    if (!am_) {
      ++sc_.unexpected;
      sc_.fail(fmt::format("n{}.e{}: an active message before registration began", node_, ep_));
    } else {
      am_->on_completion(c, a);
      sc_.am_unknown = am_->unknown;
      sc_.am_handled = am_->handled;
      sc_.am_errors = am_->errors;
    }
    if (c.handler == grim::kAmRegistry || !am_ || am_->unknown != unknown) give_back(a);
  }

  // A received message (by its handler, or the program for a plain one): checked, then its
  // buffer goes back to the NIC after the program's work on it.
  void consume(std::uint32_t src, std::uint32_t src_ep, std::uint32_t channel, std::uint32_t length, std::uint32_t tag, std::uint64_t a,
               std::uint32_t kind, bool incr) {
    check(src, channel, length, tag, a, kind, src_ep);
    if (incr) ++sc_.am_incr;
    if (am_) sc_.am_handled = am_->handled;
    if (o_.recv_delay) sc_core::wait(sc_core::sc_time::from_value(o_.recv_delay));
    if (credits_.enabled()) credits_.give(src, node_, length);  // consumed: the sender may send again
    give_back(a);
  }

  void give_back(std::uint64_t a) {
    spare_rbufs_.push_back(a);
    post_spare();
  }

  void check(std::uint32_t src, std::uint32_t channel, std::uint32_t length, std::uint32_t tag, std::uint64_t addr, std::uint32_t kind,
             std::uint32_t src_ep) {
    ++sc_.received;
    sc_.bytes += length;
    const std::uint32_t key = stream_key(src, src_ep, channel);
    const auto& streams = plan_.streams[slot_];
    const auto sizes_it = streams.find(key);
    const std::uint32_t idx = tag_index(tag);
    std::uint32_t& next = next_index_[key];
    if (kind != grim::kCqRecv || sizes_it == streams.end() || tag != message_tag(src, node_, channel, idx, ep_) ||
        idx >= sizes_it->second.size()) {
      ++sc_.unexpected;
      sc_.fail(fmt::format("n{}.e{}: unexpected completion kind {} from n{}.e{} channel {} tag {:#x}", node_, ep_, kind, src, src_ep, channel, tag));
      return;
    }
    if (idx != next) {
      ++(idx < next ? sc_.duplicates : sc_.out_of_order);
      sc_.fail(fmt::format("n{}.e{}: from n{}.e{} channel {}: message {} arrived, expected {}", node_, ep_, src, src_ep, channel, idx, next));
      next = std::max(next, idx + 1);
      return;
    }
    ++next;
    const std::uint32_t size = sizes_it->second[idx];
    const std::int64_t bad = length == size ? first_bad(drv_, addr, tag, size) : 0;
    if (bad >= 0) {
      ++sc_.corrupt;
      sc_.fail(fmt::format("n{}.e{}: message {} from n{}.e{} channel {} ({} bytes, got {}) differs at byte {}", node_, ep_, idx, src, src_ep,
                           channel, size, length, bad));
    }
  }

  GrimEndpoint& drv_;
  const std::uint32_t node_, ep_;
  const std::size_t slot_;
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
  std::unique_ptr<GrimAm> am_;
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

std::uint32_t host_channels(const WorkloadOptions& o) { return std::min(o.channels, grim::kChannels - o.devices); }

std::uint32_t endpoint_channels(std::uint32_t ep, std::uint32_t devices) {
  const std::uint32_t all = (1u << grim::kChannels) - 1;
  if (ep == 0) return all >> devices;       // channels 0 .. 3-devices
  return 1u << (grim::kChannels - ep);      // device d: channel 4-d
}

namespace {
void check_options(const WorkloadOptions& o) {
  if (o.nodes < 2 || o.nodes > static_cast<int>(grim::kMaxNodes))
    throw UserError(fmt::format("grim: {} nodes is outside 2..{}", o.nodes, grim::kMaxNodes));
  if (o.channels < 1 || o.channels > grim::kChannels) throw UserError(fmt::format("grim: {} channels is outside 1..{}", o.channels, grim::kChannels));
  if (o.senders != -1 && (o.senders < 1 || o.senders > o.nodes))
    throw UserError(fmt::format("grim: {} senders is outside 1..{} (the nodes)", o.senders, o.nodes));
  if (o.min_size < 1 || o.min_size > o.max_size) throw UserError(fmt::format("grim: sizes {}..{} are not a range", o.min_size, o.max_size));
  if (o.devices >= grim::kMaxEndpoints) throw UserError(fmt::format("grim: {} device endpoints per node is outside 0..{}", o.devices, grim::kMaxEndpoints - 1));
  if (o.idle_hosts >> o.nodes) throw UserError(fmt::format("grim: idle hosts mask {:#x} names a node beyond n{}", o.idle_hosts, o.nodes - 1));
  if (o.idle_hosts && o.devices == 0) throw UserError("grim: a node whose host is idle needs a device endpoint to carry its traffic");
  if (o.am && o.idle_hosts) throw UserError("grim: active messages need every host (node 0's is the master)");
  if (o.am_bogus && !o.am) throw UserError("grim: messages with unknown handler ids need active messages (--am)");
  if ((o.devices || o.am) && o.host_credits) throw UserError("grim: host credits are for host endpoints with plain messages only");
}
}  // namespace

Plan make_plan(const WorkloadOptions& o) {
  check_options(o);
  const auto n = static_cast<std::size_t>(o.nodes);
  const int senders = o.senders < 0 ? o.nodes : o.senders;
  const std::size_t slots = n * grim::kMaxEndpoints;
  std::vector<std::vector<std::uint32_t>> eps(n);  // endpoints with traffic, by node
  for (std::size_t k = 0; k < n; ++k) {
    if (!((o.idle_hosts >> k) & 1)) eps[k].push_back(0);
    for (std::uint32_t d = 1; d <= o.devices; ++d) eps[k].push_back(d);
  }
  Plan p;
  p.sends.resize(slots);
  p.streams.resize(slots);
  p.expected.assign(slots, 0);
  p.bogus.assign(slots, 0);
  p.participants = static_cast<std::uint32_t>(n * (1 + o.devices));
  for (int src = 0; src < senders; ++src)
    for (const std::uint32_t ep : eps[static_cast<std::size_t>(src)]) {
      // The host's stream name is the one of runs without devices: the same plan for them.
      Rng rng(o.seed, ep == 0 ? fmt::format("grim.plan.n{}", src) : fmt::format("grim.plan.n{}.e{}", src, ep));
      auto& sends = p.sends[ep_slot(static_cast<std::uint32_t>(src), ep)];
      for (std::uint32_t k = 0; k < o.messages + o.am_bogus; ++k) {
        auto dst = static_cast<std::uint32_t>(rng.below(n - 1));
        if (dst >= static_cast<std::uint32_t>(src)) ++dst;
        const auto ch = ep == 0 ? static_cast<std::uint32_t>(rng.below(host_channels(o))) : grim::kChannels - ep;
        const auto size = o.min_size + static_cast<std::uint32_t>(rng.below(o.max_size - o.min_size + 1));
        const auto& to_eps = eps[dst];
        const std::uint32_t dst_ep = to_eps.size() == 1 ? to_eps[0] : to_eps[rng.below(to_eps.size())];
        const std::size_t to = ep_slot(dst, dst_ep);
        ++p.expected[to];
        if (k >= o.messages) {  // bogus: no stream index, counted apart
          sends.push_back(Planned{dst, ch, 0, size, dst_ep, true});
          ++p.bogus[to];
          continue;
        }
        auto& stream = p.streams[to][stream_key(static_cast<std::uint32_t>(src), ep, ch)];
        sends.push_back(Planned{dst, ch, static_cast<std::uint32_t>(stream.size()), size, dst_ep, false});
        stream.push_back(size);
      }
    }
  return p;
}

void run_node(GrimEndpoint& ep, int node, const Plan& plan, const WorkloadOptions& o, NodeScore& score, HostCredits& credits) {
  NodeRun(ep, node, plan, o, score, credits).run();
}

}  // namespace sanvp::grim_host
