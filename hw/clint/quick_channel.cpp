#include "hw/clint/quick_channel.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::clint {

namespace {
// Event priorities within one instant: deliveries and frees first, then heads reach the
// switch, then each output resolves its contenders of this instant, then transmitters start.
enum Prio { kDeliver = 0, kHead = 1, kResolve = 2, kTx = 3, kGen = 4 };
}  // namespace

QuickConfig QuickConfig::from(ParamValues& pv, Time bulk_slot) {
  QuickConfig c;
  c.read_params(pv);
  c.bulk_slot = bulk_slot;
  c.validate();
  return c;
}

void QuickConfig::validate() const {
  check_ranges();
  if (bulk_slot == 0 || static_cast<Time>(bulk_bytes) * byte_time + qreq_time() >= bulk_slot)
    throw UserError("clint_quick.bulk_bytes: the bulk signalling window leaves no room for a qreq in a bulk slot");
  if (timeout < qreq_time() + qack_time() + 2 * switch_latency + 4 * wire_delay)
    throw UserError(fmt::format("clint_quick.timeout: {} is shorter than a qreq/qack round trip", format_time(timeout)));
}

QuickChannel::QuickChannel(sc_core::sc_module_name nm, const QuickConfig& cfg, const TrafficConfig& traffic, int hosts,
                           std::uint64_t seed, Time warmup)
    : sc_core::sc_module(nm), cfg_(cfg), hosts_(hosts), warmup_(warmup), rng_(seed, std::string(name()) + ".backoff"),
      err_rng_(seed, std::string(name()) + ".crc") {
  cfg_.validate();
  nodes_.reserve(static_cast<std::size_t>(hosts));
  outs_.resize(static_cast<std::size_t>(hosts));
  txs_.emplace_back();  // id 0 = none
  for (int h = 0; h < hosts; ++h) {
    nodes_.emplace_back(cfg_.host_send_buffers, cfg_.recv_buffers);
    Node& n = nodes_.back();
    n.host_send_data.resize(static_cast<std::size_t>(cfg_.host_send_buffers));
    n.send.resize(static_cast<std::size_t>(cfg_.send_buffers));
    n.expected_seq.assign(static_cast<std::size_t>(hosts), 0);
    n.manual_seq.assign(static_cast<std::size_t>(hosts), 0);
    n.enable.assign(static_cast<std::size_t>(hosts), 1);
    n.corrupt.assign(static_cast<std::size_t>(hosts), 0);
    n.gen = std::make_unique<TrafficGen>(traffic, h, hosts, cfg_.qreq_time(), seed, "quick");
  }
  SC_HAS_PROCESS(QuickChannel);
  SC_THREAD(run);
}

void QuickChannel::inject(int src, int dst, Time born) {
  Node& n = nodes_.at(static_cast<std::size_t>(src));
  inject_packet(n.queue, n.manual_seq.at(static_cast<std::size_t>(dst)), stats_.generated, src, dst, born);
}

void QuickChannel::set_enable(int target, int initiator, bool enabled) {
  nodes_.at(static_cast<std::size_t>(target)).enable.at(static_cast<std::size_t>(initiator)) = enabled;
}

void QuickChannel::corrupt_next(int src, int dst, int count) {
  nodes_.at(static_cast<std::size_t>(src)).corrupt.at(static_cast<std::size_t>(dst)) += count;
}

std::uint64_t QuickChannel::backlog() const {
  std::uint64_t b = 0;
  for (const auto& n : nodes_) {
    b += n.queue.size() + static_cast<std::size_t>(cfg_.host_send_buffers) - n.hif.host_free_send();
  }
  return b;
}

void QuickChannel::run() {
  for (int h = 0; h < hosts_; ++h) {
    if (manual_) {
      for (const auto& p : nodes_[static_cast<std::size_t>(h)].queue) agenda_.at(p.born, kGen, [this, h] { generate(h); });
    } else {
      agenda_.at(nodes_[static_cast<std::size_t>(h)].gen->next_birth(), kGen, [this, h] { generate(h); });
    }
  }
  agenda_.run(kNever);
}

void QuickChannel::generate(int h) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  if (!manual_) {
    stats_.generated += n.gen->generate_until(sc_now_ps() + 1, n.queue);
    agenda_.at(n.gen->next_birth(), kGen, [this, h] { generate(h); });
  }
  refill(h);
  tx_try(h);
}

void QuickChannel::refill(int h) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  const Time now = sc_now_ps();
  while (!n.queue.empty() && n.queue.front().born <= now) {  // host: buffer + SendReg
    std::optional<int> bf = n.hif.host_alloc_send();
    if (!bf) break;
    n.host_send_data[static_cast<std::size_t>(*bf)] = n.queue.front();
    n.hif.host_write_send_reg(*bf, n.queue.front().dst);
    n.queue.pop_front();
  }
  auto& reg = n.hif.send_reg();
  for (auto& b : n.send) {  // NIC: in-order prefetch, SendReg order
    if (b.used) continue;
    if (reg.empty()) break;
    b = SendBuf{};
    b.bf = reg.front().bf;
    b.pkt = n.host_send_data[static_cast<std::size_t>(b.bf)];
    b.used = true;
    b.ready = now;
    reg.pop_front();
  }
}

Time QuickChannel::window_end_if_blocked(Time t, Time len) const {
  if (cfg_.bulk_bytes == 0) return t;
  const Time T = cfg_.bulk_slot, W = static_cast<Time>(cfg_.bulk_bytes) * cfg_.byte_time;
  const Time k = t / T;
  if (t < k * T + W) return k * T + W;
  if (t + len > (k + 1) * T) return (k + 1) * T + W;
  return t;
}

void QuickChannel::tx_try(int h) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  const Time now = sc_now_ps();
  if (n.busy_until > now) return;  // the transmitter-free event calls again
  n.busy_tx = 0;
  if (!n.acks.empty()) {
    Time start = window_end_if_blocked(now, cfg_.qack_time());
    if (start > now) { agenda_.at(start, kTx, [this, h] { tx_try(h); }); return; }
    Ack a = n.acks.front();
    n.acks.pop_front();
    send_ack(h, a, now);
    n.busy_until = now + cfg_.qack_time();
    std::uint64_t v = ++n.free_version;
    agenda_.at(n.busy_until, kDeliver, [this, h, v] { if (nodes_[static_cast<std::size_t>(h)].free_version == v) tx_try(h); });
    return;
  }
  int pick = -1;
  Time next_ready = kNever;
  for (int k = 0; k < cfg_.send_buffers; ++k) {
    const SendBuf& b = n.send[static_cast<std::size_t>(k)];
    if (!b.used || b.in_flight) continue;
    if (b.ready > now) { next_ready = std::min(next_ready, b.ready); continue; }
    if (pick < 0 || b.pkt.born < n.send[static_cast<std::size_t>(pick)].pkt.born ||
        (b.pkt.born == n.send[static_cast<std::size_t>(pick)].pkt.born && b.pkt.id < n.send[static_cast<std::size_t>(pick)].pkt.id))
      pick = k;
  }
  if (pick < 0) {
    if (next_ready != kNever) agenda_.at(next_ready, kTx, [this, h] { tx_try(h); });
    return;
  }
  Time start = window_end_if_blocked(now, cfg_.qreq_time());
  if (start > now) { agenda_.at(start, kTx, [this, h] { tx_try(h); }); return; }
  SendBuf& b = n.send[static_cast<std::size_t>(pick)];
  const std::uint64_t id = txs_.size();
  Tx x;
  x.pkt = b.pkt;
  x.buf = pick;
  x.start = now;
  x.len = cfg_.qreq_time();
  if (n.corrupt[static_cast<std::size_t>(b.pkt.dst)] > 0) { --n.corrupt[static_cast<std::size_t>(b.pkt.dst)]; x.crc_ok = false; }
  else if (cfg_.error_rate > 0 && err_rng_.uniform01() < cfg_.error_rate) x.crc_ok = false;
  txs_.push_back(x);
  if (b.sent) ++stats_.retransmissions;
  b.sent = true;
  b.in_flight = true;
  b.tx = id;
  b.last_start = now;
  ++stats_.transmissions;
  n.busy_until = now + cfg_.qreq_time();
  n.busy_tx = id;
  std::uint64_t v = ++n.free_version;
  agenda_.at(n.busy_until, kDeliver, [this, h, v] { if (nodes_[static_cast<std::size_t>(h)].free_version == v) tx_try(h); });
  const int out = b.pkt.dst;
  agenda_.at(now + cfg_.wire_delay, kHead, [this, out, id] {
    outs_[static_cast<std::size_t>(out)].contenders.push_back(id);
    head_at_switch(out);
  });
  agenda_.at(now + cfg_.timeout, kDeliver, [this, h, pick, id] { timeout(h, pick, id); });
}

void QuickChannel::send_ack(int h, const Ack& a, Time start) {
  (void)h;
  ++stats_.acks_sent;
  agenda_.at(start + cfg_.wire_delay, kHead, [this, a] {
    outs_[static_cast<std::size_t>(a.to)].ack_heads.push_back(a);
    head_at_switch(a.to);
  });
}

void QuickChannel::head_at_switch(int out) {
  Output& o = outs_[static_cast<std::size_t>(out)];
  if (o.resolve_pending) return;
  o.resolve_pending = true;
  agenda_.at(sc_now_ps(), kResolve, [this, out] { resolve(out); });
}

void QuickChannel::resolve(int out) {
  Output& o = outs_[static_cast<std::size_t>(out)];
  const Time now = sc_now_ps();
  o.resolve_pending = false;
  if (o.busy_until <= now) { o.cur_tx = 0; o.cur_is_ack = false; }
  const Time ack_len = cfg_.qack_time();
  for (const Ack& a : o.ack_heads) {
    Time ack_start = now;
    if (o.busy_until > now && o.cur_tx != 0) {
      Tx& x = txs_[o.cur_tx];
      if (!cfg_.interleave) {  // Q1: the qreq on the output loses to the ack
        x.dropped = true;
        ++stats_.collisions;
        ++stats_.collisions_with_ack;
        o.cur_tx = 0;
        o.busy_until = now + ack_len;
        o.cur_is_ack = true;
      } else {  // Q2: the ack is interspersed into the qreq, which ends later
        o.busy_until += ack_len;
        x.len += ack_len;
        schedule_delivery(o.cur_tx);
      }
    } else if (o.busy_until > now) {  // another ack: follow it
      ack_start = o.busy_until;
      o.busy_until += ack_len;
      o.cur_is_ack = true;
    } else {
      o.busy_until = now + ack_len;
      o.cur_is_ack = true;
      o.cur_tx = 0;
    }
    const Time arrive = ack_start + cfg_.switch_latency + ack_len + cfg_.wire_delay;
    agenda_.at(arrive, kDeliver, [this, a] { ack_arrives(a); });
  }
  o.ack_heads.clear();
  if (o.contenders.empty()) return;
  // Round robin among the qreq heads of this instant, starting at the pointer.
  auto key = [&](std::uint64_t id) { return (txs_[id].pkt.src - o.rr + hosts_) % hosts_; };
  std::sort(o.contenders.begin(), o.contenders.end(), [&](std::uint64_t a, std::uint64_t b) { return key(a) < key(b); });
  for (std::uint64_t id : o.contenders) {
    Tx& x = txs_[id];
    const bool busy = o.busy_until > now;
    if (busy && !(cfg_.interleave && o.cur_is_ack && o.cur_tx == 0)) {
      x.dropped = true;
      ++stats_.collisions;
      if (o.cur_is_ack && o.cur_tx == 0) ++stats_.collisions_with_ack;
      continue;
    }
    // Wins the output (in Q2 possibly a few bytes behind an ack in flight).
    x.out_start = busy ? o.busy_until : now;
    x.on_output = true;
    o.cur_tx = id;
    o.cur_is_ack = false;
    o.busy_until = x.out_start + x.len;
    o.rr = (x.pkt.src + 1) % hosts_;
    schedule_delivery(id);
  }
  o.contenders.clear();
}

void QuickChannel::schedule_delivery(std::uint64_t id) {
  Tx& x = txs_[id];
  const std::uint64_t v = ++x.version;
  const Time t = x.out_start + x.len + cfg_.switch_latency + cfg_.wire_delay;
  agenda_.at(t, kDeliver, [this, id, v] { deliver(id, v); });
}

void QuickChannel::queue_ack(int h, const Ack& a) {
  Node& n = nodes_[static_cast<std::size_t>(h)];
  const Time now = sc_now_ps();
  if (cfg_.interleave && n.busy_until > now && n.busy_tx != 0) {
    // Q2 NIC: the ack goes out now, inside the qreq being sent, which is stretched.
    send_ack(h, a, now);
    Tx& x = txs_[n.busy_tx];
    x.len += cfg_.qack_time();
    n.busy_until += cfg_.qack_time();
    std::uint64_t v = ++n.free_version;
    agenda_.at(n.busy_until, kDeliver, [this, h, v] { if (nodes_[static_cast<std::size_t>(h)].free_version == v) tx_try(h); });
    if (x.on_output && !x.dropped) {
      Output& o = outs_[static_cast<std::size_t>(x.pkt.dst)];
      if (o.cur_tx == n.busy_tx) o.busy_until += cfg_.qack_time();
      schedule_delivery(n.busy_tx);
    }
    return;
  }
  n.acks.push_back(a);
  tx_try(h);
}

void QuickChannel::deliver(std::uint64_t id, std::uint64_t version) {
  Tx& x = txs_[id];
  if (x.version != version || x.dropped) return;
  const int tgt = x.pkt.dst, src = x.pkt.src;
  Node& t = nodes_[static_cast<std::size_t>(tgt)];
  if (!x.crc_ok) { ++stats_.crc_errors; return; }        // no answer: it might reach the wrong initiator
  if (!t.enable[static_cast<std::size_t>(src)]) return;  // disabled initiator: ignored
  std::uint64_t& exp = t.expected_seq[static_cast<std::size_t>(src)];
  if (x.pkt.seq < exp) {
    ++stats_.duplicates;
    queue_ack(tgt, Ack{tgt, src, id, false});
  } else if (x.pkt.seq > exp) {
    // Overtook a lost qreq of the same pair: dropped, its initiator times out and resends in order.
  } else if (t.hif.nic_free_recv() == 0) {
    ++stats_.nacks;
    queue_ack(tgt, Ack{tgt, src, id, true});
  } else {
    t.hif.nic_post_recv(*t.hif.nic_alloc_recv());
    agenda_.at(sc_now_ps() + cfg_.host_recv_time, kDeliver, [this, tgt] {
      HostInterface& hif = nodes_[static_cast<std::size_t>(tgt)].hif;  // host reads RecvQueue, returns the buffer
      std::optional<int> bf = hif.host_poll_recv();
      if (!bf) throw SimError("clint: quick RecvQueue empty when the host expected a packet");
      hif.host_write_recv_cmpl(*bf);
      hif.nic_consume_recv_cmpl();
    });
    ++exp;
    ++stats_.delivered;
    if (on_deliver) on_deliver(x.pkt, sc_now_ps());
    queue_ack(tgt, Ack{tgt, src, id, false});
  }
}

void QuickChannel::ack_arrives(const Ack& a) {
  ++stats_.acks_received;
  Node& n = nodes_[static_cast<std::size_t>(a.to)];
  const Time now = sc_now_ps();
  for (auto& b : n.send) {
    if (!b.used || !b.in_flight || b.tx != a.tx) continue;
    if (!a.nack) {
      ++stats_.completed;
      if (b.pkt.born >= warmup_) stats_.add_latency(b.last_start - b.pkt.born);
      if (on_complete) on_complete(b.pkt, now);
      n.hif.nic_complete_send(b.bf, false);
      for (const auto& c : n.hif.host_poll_send_completions()) (void)c;  // host frees the buffer at once
      b = SendBuf{};
      refill(a.to);
      tx_try(a.to);
    } else {
      b.in_flight = false;
      b.ready = now + static_cast<Time>(rng_.uniform01() * static_cast<double>(cfg_.backoff));
      const int h = a.to;
      agenda_.at(b.ready, kTx, [this, h] { tx_try(h); });
    }
    return;
  }
}

void QuickChannel::timeout(int h, int buf, std::uint64_t id) {
  SendBuf& b = nodes_[static_cast<std::size_t>(h)].send[static_cast<std::size_t>(buf)];
  if (!b.used || !b.in_flight || b.tx != id) return;
  ++stats_.timeouts;
  b.in_flight = false;
  b.ready = sc_now_ps() + static_cast<Time>(rng_.uniform01() * static_cast<double>(cfg_.backoff));
  agenda_.at(b.ready, kTx, [this, h] { tx_try(h); });
}

}  // namespace sanvp::clint
