#include "hw/clint/bulk_channel.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::clint {

BulkConfig BulkConfig::from(ParamValues& pv) {
  BulkConfig c;
  c.read_params(pv);
  c.q_byte_time = QuickParams::kByteTime.get(pv);
  c.q_switch_latency = QuickParams::kSwitchLatency.get(pv);
  c.q_wire_delay = QuickParams::kWireDelay.get(pv);
  c.validate();
  return c;
}

void BulkConfig::validate() const {
  check_ranges();
  if (arb_lead > slot())
    throw UserError(fmt::format("clint_bulk.arb_lead: {} exceeds the bulk slot {}", format_time(arb_lead), format_time(slot())));
  if (arb_lead < cfg_gnt_transit())
    throw UserError(fmt::format("clint_bulk.arb_lead: {} is shorter than the cfg + gnt transit {} on the quick channel",
                                format_time(arb_lead), format_time(cfg_gnt_transit())));
  if (timeout < slot())
    throw UserError(fmt::format("clint_bulk.timeout: {} is shorter than one bulk slot {}", format_time(timeout), format_time(slot())));
}

BulkChannel::BulkChannel(sc_core::sc_module_name nm, const BulkConfig& cfg, const TrafficConfig& traffic, int hosts,
                         std::unique_ptr<BulkArbiter> arbiter, std::uint64_t seed, Time warmup)
    : sc_core::sc_module(nm), cfg_(cfg), hosts_(hosts), arbiter_(std::move(arbiter)),
      err_rng_(seed, std::string(name()) + ".crc"), warmup_(warmup) {
  cfg_.validate();
  if (!arbiter_ || arbiter_->size() != hosts) throw UserError("clint: arbiter size must equal the number of hosts");
  nodes_.reserve(static_cast<std::size_t>(hosts));
  for (int h = 0; h < hosts; ++h) {
    nodes_.emplace_back(cfg_.host_send_buffers, cfg_.recv_buffers);
    Node& n = nodes_.back();
    n.host_send_data.resize(static_cast<std::size_t>(cfg_.host_send_buffers));
    n.per_target.assign(static_cast<std::size_t>(hosts), 0);
    n.expected_seq.assign(static_cast<std::size_t>(hosts), 0);
    n.enable.assign(static_cast<std::size_t>(hosts), 1);
    n.corrupt.assign(static_cast<std::size_t>(hosts), 0);
    n.manual_seq.assign(static_cast<std::size_t>(hosts), 0);
    n.gen = std::make_unique<TrafficGen>(traffic, h, hosts, cfg_.slot(), seed, "bulk");
  }
  tr_slot_.declare(name(), "slot", 32);
  // At most `hosts` matched; a grant is target + 1 <= hosts.
  const int host_bits = bits_for(static_cast<std::uint64_t>(hosts));
  tr_matched_.declare(name(), "matched", host_bits);
  for (int h = 0; h < hosts; ++h) tr_grant_.emplace_back().declare(fmt::format("{}.sched", name()), fmt::format("gnt{}", h), host_bits);
  SC_HAS_PROCESS(BulkChannel);
  SC_THREAD(run);
}

void BulkChannel::set_enable(int target, int initiator, bool enabled) {
  nodes_.at(static_cast<std::size_t>(target)).enable.at(static_cast<std::size_t>(initiator)) = enabled;
}

void BulkChannel::corrupt_next(int src, int dst, int count) {
  nodes_.at(static_cast<std::size_t>(src)).corrupt.at(static_cast<std::size_t>(dst)) += count;
}

void BulkChannel::inject(int src, int dst, Time born) {
  Node& n = nodes_.at(static_cast<std::size_t>(src));
  inject_packet(n.packet_queue, n.manual_seq.at(static_cast<std::size_t>(dst)), stats_.generated, src, dst, born);
}

std::uint64_t BulkChannel::backlog() const {
  std::uint64_t b = 0;
  for (const auto& n : nodes_) b += n.packet_queue.size() + (static_cast<std::size_t>(cfg_.host_send_buffers) - n.hif.host_free_send());
  return b;
}

void BulkChannel::release_recv(Node& n, Time now) {
  while (!n.recv_release.empty() && n.recv_release.front() <= now) {
    n.recv_release.pop_front();
    std::optional<int> bf = n.hif.host_poll_recv();  // host reads RecvQueue ...
    if (!bf) throw SimError("clint: RecvQueue empty when the host expected a packet");
    n.hif.host_write_recv_cmpl(*bf);                 // ... and returns the buffer
  }
  n.hif.nic_consume_recv_cmpl();
}

void BulkChannel::refill(Node& n, Time now) {
  if (!manual_) {
    stats_.generated += n.gen->generate_until(now + 1, n.packet_queue);
  }
  // Host: a free HostSendBuffer per packet, announced through SendReg.
  while (!n.packet_queue.empty() && n.packet_queue.front().born <= now) {
    std::optional<int> bf = n.hif.host_alloc_send();
    if (!bf) break;
    n.host_send_data[static_cast<std::size_t>(*bf)] = n.packet_queue.front();
    n.hif.host_write_send_reg(*bf, n.packet_queue.front().dst);
    n.packet_queue.pop_front();
  }
  // NIC prefetch: SendReg names the target, so the NIC can skip targets at their cap.
  auto& reg = n.hif.send_reg();
  for (auto it = reg.begin(); it != reg.end() && static_cast<int>(n.send.size()) < cfg_.send_buffers;) {
    int& cnt = n.per_target[static_cast<std::size_t>(it->tgt)];
    if (cnt < cfg_.per_target_max) {
      ++cnt;
      SendBuf b;
      b.bf = it->bf;
      b.pkt = n.host_send_data[static_cast<std::size_t>(it->bf)];
      n.send.push_back(b);
      it = reg.erase(it);
    } else {
      ++it;
    }
  }
}

void BulkChannel::expire_timeouts(Time now) {
  for (auto& n : nodes_)
    for (auto& b : n.send)
      if (b.in_flight && b.retry_at <= now) {
        ++stats_.timeouts;
        for (auto& o : n.send)  // go back N: this packet and the later ones of the pair
          if (o.in_flight && o.pkt.dst == b.pkt.dst && o.pkt.seq >= b.pkt.seq) { o.in_flight = false; o.tx_id = 0; }
      }
}

RequestMatrix BulkChannel::snapshot(Time now) {
  RequestMatrix m(hosts_);
  for (int i = 0; i < hosts_; ++i) {
    Node& n = nodes_[static_cast<std::size_t>(i)];
    release_recv(n, now);
    refill(n, now);
    for (const auto& b : n.send)
      if (!b.in_flight && nodes_[static_cast<std::size_t>(b.pkt.dst)].enable[static_cast<std::size_t>(i)])
        m.set(i, b.pkt.dst);
  }
  return m;
}

void BulkChannel::start_transfers(const Grants& g, Time start) {
  std::uint64_t tgt_busy = 0;
  int matched = 0;
  for (int i = 0; i < hosts_; ++i) {
    int t = g[static_cast<std::size_t>(i)];
    tr_grant_[static_cast<std::size_t>(i)].change(start, static_cast<std::uint64_t>(t + 1));
    if (t < 0) continue;
    if (tgt_busy & (std::uint64_t{1} << t)) ++stats_.bulk_collisions;  // two breqs on one output
    tgt_busy |= std::uint64_t{1} << t;
    ++matched;
    Node& n = nodes_[static_cast<std::size_t>(i)];
    // The earliest waiting packet of the pair: sequence order on the wire.
    SendBuf* pick = nullptr;
    for (auto& b : n.send)
      if (!b.in_flight && b.pkt.dst == t && (!pick || b.pkt.seq < pick->pkt.seq)) pick = &b;
    if (!pick) throw SimError(fmt::format("clint: initiator {} granted target {} without a waiting packet", i, t));
    if (pick->last_start) ++stats_.retransmissions;
    pick->in_flight = true;
    pick->tx_id = ++tx_serial_;
    pick->retry_at = start + cfg_.timeout;
    pick->last_start = start;
    ++stats_.transmissions;
    bool crc_ok = true;
    if (n.corrupt[static_cast<std::size_t>(t)] > 0) { --n.corrupt[static_cast<std::size_t>(t)]; crc_ok = false; }
    else if (cfg_.error_rate > 0 && err_rng_.uniform01() < cfg_.error_rate) crc_ok = false;
    on_switch_.push_back(Transfer{i, t, pick->pkt, pick->tx_id, crc_ok});
  }
  stats_.matched += static_cast<std::uint64_t>(matched);
  tr_matched_.change(start, static_cast<std::uint64_t>(matched));
}

std::vector<BulkChannel::Response> BulkChannel::finish_transfers(Time end) {
  std::vector<Response> out;
  std::uint64_t ini_busy = 0;
  for (const auto& x : on_switch_) {
    Node& tn = nodes_[static_cast<std::size_t>(x.dst)];
    release_recv(tn, end);
    if (!x.crc_ok) { ++stats_.crc_errors; continue; }  // no back: it might reach the wrong initiator
    // back travels the inverted schedule: target port x.dst -> initiator port x.src.
    if (ini_busy & (std::uint64_t{1} << x.src)) ++stats_.bulk_collisions;
    ini_busy |= std::uint64_t{1} << x.src;
    std::uint64_t& exp = tn.expected_seq[static_cast<std::size_t>(x.src)];
    Response r{x.src, x.dst, x.tx_id, false, x.pkt};
    if (x.pkt.seq < exp) {
      ++stats_.duplicates;
      r.ack = true;
    } else if (x.pkt.seq > exp || tn.hif.nic_free_recv() == 0) {
      ++stats_.nacks;
    } else {
      tn.hif.nic_post_recv(*tn.hif.nic_alloc_recv());  // NICRecvBuffer -> HostRecvBuffer, RecvQueue
      tn.recv_release.push_back(end + cfg_.host_recv_time);
      ++exp;
      ++stats_.delivered;
      if (on_deliver) on_deliver(x.pkt, end);
      r.ack = true;
    }
    out.push_back(r);
  }
  on_switch_.clear();
  return out;
}

void BulkChannel::deliver_responses(const std::vector<Response>& rs, Time at) {
  for (const auto& r : rs) {
    Node& n = nodes_[static_cast<std::size_t>(r.initiator)];
    auto it = std::find_if(n.send.begin(), n.send.end(), [&](const SendBuf& b) { return b.in_flight && b.tx_id == r.tx_id; });
    if (it == n.send.end()) continue;  // stale: the attempt was already given up
    if (r.ack) {
      // SendCmplQueue entry; the host returns the buffer to its free list.
      ++stats_.completed;
      if (it->pkt.born >= warmup_) stats_.add_latency(it->last_start - it->pkt.born);
      if (on_complete) on_complete(it->pkt, at);
      n.hif.nic_complete_send(it->bf, false);
      for (const auto& c : n.hif.host_poll_send_completions()) (void)c;  // host frees the buffer at once
      --n.per_target[static_cast<std::size_t>(it->pkt.dst)];
      n.send.erase(it);
    } else {
      const int dst = it->pkt.dst;
      const std::uint64_t seq = it->pkt.seq;
      for (auto& o : n.send)
        if (o.in_flight && o.pkt.dst == dst && o.pkt.seq >= seq) { o.in_flight = false; o.tx_id = 0; }
    }
  }
}

void BulkChannel::run() {
  const Time T = cfg_.slot();
  auto wait_until = [](Time t) {
    const Time now = static_cast<Time>(sc_core::sc_time_stamp().value());
    if (t > now) sc_core::wait(sc_core::sc_time::from_value(t - now));
  };
  Grants next(static_cast<std::size_t>(hosts_), -1);
  struct Pending { Time at; std::vector<Response> rs; };
  std::deque<Pending> pending;
  for (slot_ = 0;; ++slot_) {
    const Time t0 = slot_ * T;
    wait_until(t0);
    tr_slot_.change(t0, slot_);
    ++stats_.slots;
    // Tails of the previous slot's breqs reach the targets; their backs leave right away.
    if (!on_switch_.empty()) {
      const Time end = t0 - T + cfg_.guard + cfg_.breq_time() + 2 * cfg_.wire_delay + cfg_.switch_latency;
      pending.push_back(Pending{end + cfg_.back_transit(), finish_transfers(end)});
    }
    // Transfer stage of the grants computed in the previous slot.
    start_transfers(next, t0 + cfg_.guard);
    // Arbitration stage: cfg snapshot, schedule, gnt.
    const Time snap = t0 + T - cfg_.arb_lead;
    wait_until(snap);
    while (!pending.empty() && pending.front().at <= snap) {
      deliver_responses(pending.front().rs, pending.front().at);
      pending.pop_front();
    }
    expire_timeouts(snap);
    RequestMatrix m = snapshot(snap);
    next = arbiter_->arbitrate(m);
    for (int i = 0; i < hosts_; ++i) {
      // gnt doubles as node-id assignment: the id is the port the gnt left from.
      nodes_[static_cast<std::size_t>(i)].node_id = i;
      int t = next[static_cast<std::size_t>(i)];
      if (t >= 0 && !nodes_[static_cast<std::size_t>(t)].enable[static_cast<std::size_t>(i)])
        throw SimError(fmt::format("clint: slot {}: disabled initiator {} granted target {}", slot_, i, t));
    }
    std::string err = check_matching(m, next);
    if (!err.empty()) throw SimError(fmt::format("clint: slot {}: {} grants are not a matching: {}", slot_, arbiter_->name(), err));
  }
}

}  // namespace sanvp::clint
