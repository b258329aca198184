#include "hw/clint/unscheduled_bulk.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::clint {

namespace {
enum Prio { kDeliver = 0, kHead = 1, kResolve = 2, kTx = 3, kGen = 4 };
}

UnscheduledConfig UnscheduledConfig::from(ParamValues& pv, UnscheduledMode mode) {
  UnscheduledConfig c;
  c.read_params(pv);
  c.mode = mode;
  return c;
}

UnscheduledBulk::UnscheduledBulk(sc_core::sc_module_name nm, const BulkConfig& bulk, const UnscheduledConfig& cfg,
                                 const TrafficConfig& traffic, int hosts, std::uint64_t seed, Time warmup)
    : sc_core::sc_module(nm), bulk_(bulk), cfg_(cfg), hosts_(hosts), warmup_(warmup) {
  if (cfg_.timeout < bulk_.breq_time() + 2 * bulk_.wire_delay + bulk_.switch_latency + bulk_.back_transit())
    throw UserError(fmt::format("clint_bulk.unsched_timeout: {} is shorter than the bulk round trip", format_time(cfg_.timeout)));
  // B3: a breq may wait behind out_buffers others; the timeout must not fire before its back.
  if (cfg_.mode == UnscheduledMode::OutputBuffered) cfg_.timeout += static_cast<Time>(cfg_.out_buffers) * bulk_.breq_time();
  nodes_.resize(static_cast<std::size_t>(hosts));
  outs_.resize(static_cast<std::size_t>(hosts));
  for (int h = 0; h < hosts; ++h) {
    Node& n = nodes_[static_cast<std::size_t>(h)];
    n.send.resize(static_cast<std::size_t>(bulk_.send_buffers));
    // Load 1.0 = one breq per breq time on the link (no slot guard on an unslotted channel).
    n.gen = std::make_unique<TrafficGen>(traffic, h, hosts, bulk_.breq_time(), seed, "bulk");
  }
  SC_HAS_PROCESS(UnscheduledBulk);
  SC_THREAD(run);
}

std::uint64_t UnscheduledBulk::backlog() const {
  std::uint64_t b = 0;
  for (const auto& n : nodes_) {
    b += n.queue.size();
    for (const auto& s : n.send) b += s.used;
  }
  return b;
}

void UnscheduledBulk::run() {
  for (int h = 0; h < hosts_; ++h)
    agenda_.at(nodes_[static_cast<std::size_t>(h)].gen->next_birth(), kGen, [this, h] { generate(h); });
  agenda_.run(kNever);
}

void UnscheduledBulk::generate(int h) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  stats_.generated += n.gen->generate_until(sc_now_ps() + 1, n.queue);
  agenda_.at(n.gen->next_birth(), kGen, [this, h] { generate(h); });
  refill(h);
  tx_try(h);
}

void UnscheduledBulk::refill(int h) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  for (auto& b : n.send) {
    if (b.used) continue;
    if (n.queue.empty()) break;
    b = SendBuf{};
    b.pkt = n.queue.front();
    b.used = true;
    b.ready = sc_now_ps();
    n.queue.pop_front();
  }
}

void UnscheduledBulk::tx_try(int h) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  const Time now = sc_now_ps();
  if (n.stalled || n.busy_until > now) return;
  int pick = -1;
  Time next_ready = kNever;
  for (int k = 0; k < static_cast<int>(n.send.size()); ++k) {
    const SendBuf& b = n.send[static_cast<std::size_t>(k)];
    if (!b.used || b.in_flight) continue;
    if (b.ready > now) { next_ready = std::min(next_ready, b.ready); continue; }
    if (pick < 0 || b.pkt.born < n.send[static_cast<std::size_t>(pick)].pkt.born) pick = k;
  }
  if (pick < 0) {
    if (next_ready != kNever) agenda_.at(next_ready, kTx, [this, h] { tx_try(h); });
    return;
  }
  SendBuf& b = n.send[static_cast<std::size_t>(pick)];
  b.in_flight = true;
  b.tx = ++tx_serial_;
  b.last_start = now;
  const std::uint64_t tx = b.tx;
  if (cfg_.mode == UnscheduledMode::BackPressure) {
    n.stalled = true;  // until the output takes the head
  } else {
    if (b.sent) ++stats_.retransmissions;
    ++stats_.transmissions;
    n.busy_until = now + bulk_.breq_time();
    agenda_.at(n.busy_until, kTx, [this, h] { tx_try(h); });
    agenda_.at(now + cfg_.timeout, kDeliver, [this, h, pick, tx] { timeout(h, pick, tx); });
  }
  b.sent = true;
  const int out = b.pkt.dst;
  agenda_.at(now + bulk_.wire_delay, kHead, [this, out, h, pick] {
    Output& o = outs_[static_cast<std::size_t>(out)];
    o.heads.emplace_back(h, pick);
    if (!o.resolve_pending) {
      o.resolve_pending = true;
      agenda_.at(sc_now_ps(), kResolve, [this, out] { resolve(out); });
    }
  });
}

void UnscheduledBulk::resolve(int out) {
  Output& o = outs_[static_cast<std::size_t>(out)];
  const Time now = sc_now_ps();
  o.resolve_pending = false;
  auto key = [&](const std::pair<int, int>& x) { return (x.first - o.rr + hosts_) % hosts_; };
  std::sort(o.heads.begin(), o.heads.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  for (auto [h, buf] : o.heads) {
    switch (cfg_.mode) {
      case UnscheduledMode::Drop:
        if (o.busy_until > now) { ++stats_.collisions; break; }
        o.rr = (h + 1) % hosts_;
        forward(h, buf, now);
        break;
      case UnscheduledMode::OutputBuffered: {
        if (o.held >= cfg_.out_buffers) { ++stats_.collisions; break; }
        ++o.held;
        o.rr = (h + 1) % hosts_;
        const Time start = std::max(now, o.busy_until);
        forward(h, buf, start);
        agenda_.at(start + bulk_.breq_time(), kDeliver, [this, out] { --outs_[static_cast<std::size_t>(out)].held; });
        break;
      }
      case UnscheduledMode::BackPressure: {
        if (o.busy_until > now || !o.waiting.empty()) { o.waiting.emplace_back(h, buf); break; }
        o.rr = (h + 1) % hosts_;
        Node& n = nodes_[static_cast<std::size_t>(h)];
        n.stalled = false;
        ++stats_.transmissions;
        n.busy_until = now - bulk_.wire_delay + bulk_.breq_time();  // never stalled
        agenda_.at(n.busy_until, kTx, [this, h] { tx_try(h); });
        forward(h, buf, now);
        break;
      }
    }
  }
  o.heads.clear();
}

void UnscheduledBulk::forward(int h, int buf, Time out_start) {
  SendBuf& b = nodes_[static_cast<std::size_t>(h)].send[static_cast<std::size_t>(buf)];
  Output& o = outs_[static_cast<std::size_t>(b.pkt.dst)];
  o.busy_until = out_start + bulk_.breq_time();
  const int out = b.pkt.dst;
  if (cfg_.mode == UnscheduledMode::BackPressure)
    agenda_.at(o.busy_until, kDeliver, [this, out] { output_free(out); });
  const Time delivered = out_start + bulk_.switch_latency + bulk_.breq_time() + bulk_.wire_delay;
  const std::uint64_t tx = b.tx;
  const Time started = b.last_start;
  const std::uint64_t id = b.pkt.id;
  (void)tx;
  agenda_.at(delivered + bulk_.back_transit(), kDeliver, [this, h, buf, id, started] {
    SendBuf& s = nodes_[static_cast<std::size_t>(h)].send[static_cast<std::size_t>(buf)];
    if (!s.used || s.pkt.id != id) { ++stats_.duplicates; return; }  // a resent copy arrived too
    ++stats_.delivered;
    ++stats_.completed;
    if (s.pkt.born >= warmup_) stats_.add_latency(started - s.pkt.born);
    s = SendBuf{};
    refill(h);
    tx_try(h);
  });
}

void UnscheduledBulk::output_free(int out) {
  Output& o = outs_[static_cast<std::size_t>(out)];
  const Time now = sc_now_ps();
  if (o.busy_until > now || o.waiting.empty()) return;
  // Back-pressure release: round robin among the held inputs; the go signal crosses the wire,
  // then the head crosses it again.
  auto key = [&](const std::pair<int, int>& x) { return (x.first - o.rr + hosts_) % hosts_; };
  auto it = std::min_element(o.waiting.begin(), o.waiting.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  auto [h, buf] = *it;
  o.waiting.erase(it);
  o.rr = (h + 1) % hosts_;
  Node& n = nodes_[static_cast<std::size_t>(h)];
  SendBuf& b = n.send[static_cast<std::size_t>(buf)];
  const Time start = now + bulk_.wire_delay;
  b.last_start = start;
  n.stalled = false;
  n.busy_until = start + bulk_.breq_time();
  ++stats_.transmissions;
  agenda_.at(n.busy_until, kTx, [this, h] { tx_try(h); });
  forward(h, buf, start + bulk_.wire_delay);
}

void UnscheduledBulk::timeout(int h, int buf, std::uint64_t tx) {
  SendBuf& b = nodes_[static_cast<std::size_t>(h)].send[static_cast<std::size_t>(buf)];
  if (!b.used || !b.in_flight || b.tx != tx) return;
  ++stats_.timeouts;
  b.in_flight = false;
  b.ready = sc_now_ps();
  tx_try(h);
}

}  // namespace sanvp::clint
