#include "platform/tdma/tdma_run_measure.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/endian.hpp"
#include "hw/link/flit.hpp"
#include "hw/nic/memory_map.hpp"
#include "platform/fbs/skew_measure.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

namespace {

std::uint32_t be32_at(nic::Nic& n, std::uint64_t a) { return a + 4 <= n.sram().size() ? get_be32(n.sram().data() + a) : 0; }
std::uint32_t be16_at(nic::Nic& n, std::uint64_t a) {
  if (a + 2 > n.sram().size()) return 0;
  const std::uint8_t* p = n.sram().data() + a;
  return (std::uint32_t{p[0]} << 8) | p[1];
}

std::uint32_t kind_of(std::uint32_t type) {
  return type == abi::kSyncType ? abi::kKindSync : type == abi::kDataType ? abi::kKindData : type == abi::kBestType ? abi::kKindBest : 0;
}

}  // namespace

RunMeter::RunMeter(std::shared_ptr<const TdmaRunPlan> plan) : plan_(std::move(plan)) {
  const std::size_t n = plan_->sync.nodes.size();
  sent_.resize(n);
  staged_probes_.resize(n);
  for (const ScheduleVersion& v : plan_->dyn->versions) {
    stream_at_.emplace_back(n);
    for (const Reservation& r : v.schedule.reservations) {
      const Stream* st = plan_->stream(r.stream);
      stream_at_.back()[plan_->sync.index_of(static_cast<std::uint32_t>(st->src))][static_cast<std::uint32_t>(r.start)] = r.stream;
    }
  }
}

std::vector<RunPhase> RunMeter::phases() const {
  const DynamicPlan& d = *plan_->dyn;
  std::vector<RunPhase> v{{0, 0, plan_->cycles, 0}};
  for (std::size_t k = 0; k < d.records->size(); ++k) {
    const SwitchRecord& r = (*d.records)[k];
    if (r.commit == kNever) continue;  // never committed: no node switched
    v.back().cycles = static_cast<std::uint32_t>(r.activation_cycle) - v.back().cycle;
    v.push_back({static_cast<std::uint64_t>(r.activation_slot), static_cast<std::uint32_t>(r.activation_cycle),
                 plan_->cycles - static_cast<std::uint32_t>(r.activation_cycle), static_cast<std::size_t>(d.decisions[k].version)});
  }
  return v;
}

RunPhase RunMeter::phase_of(std::uint64_t slot) const {
  RunPhase p;
  for (const RunPhase& ph : phases())
    if (slot >= ph.slot) p = ph;
  return p;
}

std::int64_t RunMeter::stream_at(std::size_t i, std::uint64_t slot) const {
  const RunPhase ph = phase_of(slot);
  const auto cycle = static_cast<std::uint64_t>(plan_->dyn->versions[ph.version].schedule.cycle);
  const auto& m = stream_at_[ph.version][i];
  const auto it = m.find(static_cast<std::uint32_t>((slot - ph.slot) % cycle));
  return it == m.end() ? -1 : it->second;
}

void RunMeter::watch_nic(std::size_t i, nic::Nic& n) {
  const std::uint32_t node = plan_->sync.nodes[i];
  n.send_dma().set_observer([this, i, node, &n](std::uint32_t addr, std::uint32_t route, Time first, Time last, std::uint32_t wire) {
    PacketRecord r;
    r.id = nic_packet_id(node, sent_[i].size());
    r.src = node;
    r.hops = route;
    r.wire = wire;
    r.first = first;
    r.last = last;
    r.kind = kind_of(be16_at(n, std::uint64_t{addr} + route));
    for (std::uint32_t b = 0; b < route && std::uint64_t{addr} + b < n.sram().size(); ++b) r.route.push_back(n.sram().data()[addr + b]);
    r.slot = be32_at(n, std::uint64_t{addr} + route + 2);
    const std::int64_t st = stream_at(i, r.slot);  // the phase is known: its commit came before its boundary
    if (r.kind == abi::kKindBest) r.dst = be32_at(n, std::uint64_t{addr} + route + 6);  // its header's stream word: the destination
    if (r.kind != abi::kKindBest && st >= 0) {
      r.stream = st;
      r.dst = static_cast<std::uint32_t>(plan_->stream(r.stream)->dst);
    }
    sent_[i].push_back(r);
  });
  n.recv_dma().set_observer([this, node, &n](std::uint32_t idx, Time, Time at, std::uint32_t, std::uint32_t) {
    std::uint32_t ring = 0, size = 1;
    n.recv_dma().reg_read(nic::map::nic::kRxRing, ring);
    n.recv_dma().reg_read(nic::map::nic::kRxSize, size);
    const std::uint32_t buf = be32_at(n, std::uint64_t{ring} + 8 * (idx % std::max<std::uint32_t>(size, 1)));
    Rx x;
    x.type = be16_at(n, buf);
    x.slot = be32_at(n, std::uint64_t{buf} + 2);
    x.src = x.type == abi::kSyncType ? plan_->sync.master : be32_at(n, std::uint64_t{buf} + 10);
    x.dst = node;
    x.at = at;
    rx_.push_back(x);
  });
}

void RunMeter::watch_switches(Network& net) {
  for (int s = 0; s < net.switches(); ++s) {
    Switch& sw = net.sw(s);
    sw.set_grant_observer([this, s, &sw](Time now, int in, int out) {
      for (const Switch::WormInfo& w : sw.worms(now)) {
        if (w.input != in) continue;
        const Grant g{s, out, now, w.packet};
        grants_[w.packet].push_back(g);
        port_grants_[{s, out}].push_back(g);
      }
    });
  }
}

void RunMeter::add_probe(const nic::ProbeRecord& r) {
  if (r.node == plan_->sync.master && !have_master_) master_probe_ = r, have_master_ = true;
  if (r.tag == abi::kProbeSwitch) {
    const std::size_t i = plan_->sync.index_of(r.node);
    auto& v = switch_at_[r.value];
    v.resize(plan_->sync.nodes.size(), kNever);
    if (i < v.size()) v[i] = static_cast<Time>(std::llround(fbs::boundary_time(plan_->sync.clocks[i], r)));
  }
  if (r.tag == abi::kProbeStaged || r.tag == abi::kProbeStageMiss) {
    const std::size_t i = plan_->sync.index_of(r.node);
    if (i < staged_probes_.size()) staged_probes_[i].push_back(r);
  }
}

Time RunMeter::release_time(std::uint64_t slot) const {
  nic::ProbeRecord m = master_probe_;
  m.value = static_cast<std::uint32_t>(slot);
  return static_cast<Time>(std::llround(fbs::boundary_time(plan_->sync.clocks[plan_->sync.index_of(plan_->sync.master)], m)));
}

std::vector<PacketRecord> RunMeter::packets() const {
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, Time> arrived;  // (src, slot, kind) -> last byte stored
  for (const Rx& x : rx_) arrived.emplace(std::make_tuple(x.src, x.slot, kind_of(x.type)), x.at);
  std::vector<PacketRecord> v;
  for (const auto& node : sent_)
    for (PacketRecord r : node) {
      const auto it = arrived.find({r.src, r.slot, r.kind});
      if (it != arrived.end()) r.arrived = it->second;
      v.push_back(r);
    }
  return v;
}

const RunMeter::Grant* RunMeter::last_before(int sw, int out, Time t, std::uint32_t not_packet) const {
  const auto it = port_grants_.find({sw, out});
  if (it == port_grants_.end()) return nullptr;
  const Grant* last = nullptr;
  for (const Grant& h : it->second) {
    if (h.at > t) break;
    if (h.packet != not_packet) last = &h;
  }
  return last;
}

// The header's waits at each switch output on its way (see the header comment) and its body's
// STOP-held time; each wait classified by the packet that held the output.
const PacketRecord* RunMeter::sent_before(const ById& by_id, std::uint32_t id, Time t) {
  const auto it = by_id.find(id);
  if (it == by_id.end()) return nullptr;
  const PacketRecord* last = nullptr;
  for (const PacketRecord* r : it->second) {
    if (r->first > t) break;
    last = r;
  }
  return last;
}

void RunMeter::waits(PacketRecord& p, TdmaRunResults& res, const ById& by_id) const {
  const TdmaRunPlan& pl = *plan_;
  const auto it = grants_.find(p.id);
  std::vector<Grant> gs;
  if (it != grants_.end())
    for (const Grant& g : it->second)
      if (g.at >= p.first && gs.size() < p.hops) gs.push_back(g);
  Time req = p.first + pl.ld + pl.rd;
  // The packet's own slot start (the master's boundary): with early sending, a wait before it
  // behind a packet of an earlier slot is the designed early-sending wait (T_b); after it, behind
  // its own or a later slot, or any wait without early sending, is blocking.
  const Time own = p.kind == abi::kKindBest ? 0 : release_time(p.slot);
  for (std::size_t k = 0; k < gs.size(); ++k) {
    const Grant& g = gs[k];
    if (g.at > req) {
      // Who held it up: the packet holding the output; else the worm ahead of it in the same
      // input buffer (its header reaches the buffer head only when that worm's tail has left):
      // the previous one through the link it came by, or the previous packet of its NIC.
      const Grant* holder = last_before(g.sw, g.out, req, p.id);
      std::uint32_t ahead = holder ? holder->packet : 0;
      if (!holder && k > 0) {
        const Grant* prev = last_before(gs[k - 1].sw, gs[k - 1].out, gs[k - 1].at, p.id);
        if (prev) holder = prev, ahead = prev->packet;
      }
      if (!holder && k == 0 && (p.id & kNicSeqMask) != 0) ahead = p.id - 1;
      const PacketRecord* hp = sent_before(by_id, ahead, req);
      const bool earlier = pl.early && hp && hp->slot < p.slot;  // a reserved or best-effort packet of an earlier slot
      const Time from = earlier ? std::max(req, std::min(own, g.at)) : req;  // blocking from here
      p.early_wait += from - req;
      if (g.at > from) {
        p.blocked += g.at - from;
        if (p.kind != abi::kKindBest && (!res.first_collision || from < res.first_collision->at)) {
          Collision c;
          c.at = from;
          c.waited = g.at - from;
          c.sw = fmt::format("sw{}", g.sw);
          c.port = g.out;
          c.packet = p.id;
          c.stream = p.stream;
          c.slot = p.slot;
          c.holder = ahead;
          c.holder_stream = hp ? hp->stream : -1;
          c.holder_slot = hp ? hp->slot : 0;
          res.first_collision = c;
        }
      }
    }
    req = g.at + pl.sd + pl.ld + pl.rd;
  }
  if (p.arrived != kNever && gs.size() == p.hops && p.hops > 0) {
    const Time bytes = static_cast<Time>(p.wire - p.hops);
    const Time unblocked = gs.back().at + pl.sd + pl.ld + (bytes - 1) * pl.cp;
    // The body held by STOP on the way: the consequence of the header's waits (the slack buffer
    // refills a round trip after GO), so it counts as they do.
    if (p.arrived > unblocked) (p.blocked == 0 && p.early_wait > 0 ? p.early_wait : p.blocked) += p.arrived - unblocked;
  }
}

void RunMeter::stream_results(const std::vector<PacketRecord>& pk, const std::vector<TdmaNodeOutcome>& outcomes, TdmaRunResults& res) const {
  const TdmaRunPlan& pl = *plan_;
  const std::vector<RunPhase> phs = phases();
  for (const Stream& st : pl.streams) {
    StreamResult r;
    r.id = st.id;
    r.src = st.src;
    r.dst = st.dst;
    r.sync = st.sync;
    // Expected: its messages in every phase whose schedule admits it.
    for (const RunPhase& ph : phs)
      for (const Admission& a : pl.dyn->versions[ph.version].schedule.admissions) {
        if (a.stream != st.id) continue;
        if (a.admitted)
          r.admitted = true, r.expected += std::uint64_t{ph.cycles} * static_cast<std::uint64_t>(pl.dyn->versions[ph.version].schedule.cycle / st.period);
        else if (r.reason.empty())
          r.reason = a.reason;
      }
    for (std::size_t k = 0; k < pl.dyn->decisions.size(); ++k)  // an added stream the admission test refused
      if (!pl.dyn->decisions[k].accepted && pl.dyn->changes[k].add && pl.dyn->changes[k].add->id == st.id) r.reason = pl.dyn->decisions[k].reason;
    double sum = 0;
    bool first = true;
    for (const PacketRecord& p : pk) {
      if (p.stream != st.id || p.kind == abi::kKindBest) continue;
      ++r.sent;
      if (r.first_slot < 0 || p.slot < r.first_slot) r.first_slot = p.slot;
      r.last_slot = std::max<std::int64_t>(r.last_slot, p.slot);
      r.blocked += p.blocked;
      r.early_wait += p.early_wait;
      if (p.blocked > 0) ++r.blocked_packets;
      if (p.arrived == kNever) continue;
      ++r.delivered;
      const RunPhase ph = phase_of(p.slot);
      const auto cycle = static_cast<std::uint64_t>(pl.dyn->versions[ph.version].schedule.cycle);
      const std::uint64_t pos = (p.slot - ph.slot) % cycle;
      const std::uint64_t release = p.slot - pos + (pos / static_cast<std::uint64_t>(st.period)) * static_cast<std::uint64_t>(st.period);
      const Time rel = release_time(release), due = release_time(release + static_cast<std::uint64_t>(st.deadline));
      const Time lat = p.arrived - rel;
      const std::int64_t slack = static_cast<std::int64_t>(due) - static_cast<std::int64_t>(p.arrived);
      if (p.arrived > due) ++r.deadline_misses;
      r.latency_min = first ? lat : std::min(r.latency_min, lat);
      r.latency_max = first ? lat : std::max(r.latency_max, lat);
      r.worst_slack = first ? slack : std::min(r.worst_slack, slack);
      first = false;
      sum += static_cast<double>(lat);
    }
    r.latency_mean = r.delivered ? sum / static_cast<double>(r.delivered) : 0;
    r.jitter = r.latency_max - r.latency_min;
    for (std::size_t i = 0; i < pl.nodes.size() && i < outcomes.size(); ++i)
      for (const nic::ProbeRecord& x : staged_probes_[i])
        if (x.tag == abi::kProbeStageMiss && x.value < outcomes[i].staged.size() && outcomes[i].staged[x.value].stream == static_cast<std::uint32_t>(st.id))
          ++r.stage_misses;
    r.deadline_misses += r.expected > r.delivered ? r.expected - r.delivered : 0;  // never delivered: missed
    res.deadline_misses += r.deadline_misses;
    res.stage_misses += r.stage_misses;
    res.reserved_blocked += r.blocked_packets;
    res.blocked += r.blocked;
    res.early_wait += r.early_wait;
    res.streams.push_back(r);
  }
}

// Staging slack: the firmware's check of message m (its probe) minus the instant its data was in SRAM.
void RunMeter::staging(const std::vector<TdmaNodeOutcome>& outcomes, TdmaRunResults& res) const {
  for (std::size_t i = 0; i < staged_probes_.size() && i < outcomes.size(); ++i)
    for (const nic::ProbeRecord& x : staged_probes_[i]) {
      if (x.tag != abi::kProbeStaged || x.value >= outcomes[i].staged_at.size()) continue;
      const Time at = outcomes[i].staged_at[x.value];
      if (at != kNever && x.time >= at) res.staging_slack = std::min(res.staging_slack, x.time - at);
    }
}

// The master's RTC never moves: each of its timed sends must leave exactly when its RTC reads the
// planned start (slot start + the entry's offset), to the picosecond.
void RunMeter::timed_sends(const std::vector<PacketRecord>& pk, TdmaRunResults& res) const {
  const TdmaRunPlan& pl = *plan_;
  const fbs::ClockOfNode& c = pl.sync.clocks[pl.sync.index_of(pl.sync.master)];
  for (const PacketRecord& p : pk) {
    if (p.src != pl.sync.master || p.kind == abi::kKindBest) continue;
    const RunPhase ph = phase_of(p.slot);
    const auto pos = static_cast<std::int64_t>((p.slot - ph.slot) % static_cast<std::uint64_t>(pl.dyn->versions[ph.version].schedule.cycle));
    const bool early = p.kind == abi::kKindData && p.stream >= 0 && pos % pl.stream(p.stream)->period != 0;  // as node_entries
    const double off = early ? static_cast<double>(pl.early_ticks) * c.tick_ps : 0.0;
    const auto planned = static_cast<Time>(std::llround(static_cast<double>(release_time(p.slot)) + off));
    const Time err = p.first > planned ? p.first - planned : planned - p.first;
    res.max_send_error = std::max(res.max_send_error, err);
    ++res.timed_checked;
  }
}

// Every best-effort packet against the schedule: no link of its route reserved in its slot.
void RunMeter::best_effort(const std::vector<PacketRecord>& pk, TdmaRunResults& res) const {
  const TdmaRunPlan& pl = *plan_;
  const auto pm = pl.topo.port_map();
  for (const PacketRecord& p : pk) {
    if (p.kind != abi::kKindBest) continue;
    ++res.best_seen;
    if (p.arrived != kNever) ++res.best_delivered;
    bool clash = false;
    for (const std::string& l : route_link_names(pl.topo, pm, static_cast<int>(p.src), static_cast<int>(p.dst), p.route))
      clash = clash || pl.reserved.count({l, static_cast<std::int64_t>(p.slot % static_cast<std::uint64_t>(pl.schedule.cycle))});
    if (clash) ++res.best_in_reserved;
  }
}

// Every change's measured switch instants (the probes of the activation boundary) and its
// status: a committed change must have switched every node or none.
void RunMeter::switches(TdmaRunResults& res) const {
  res.phases = phases();
  const DynamicPlan& d = *plan_->dyn;
  for (std::size_t k = 0; k < d.records->size(); ++k) {
    SwitchRecord& r = (*d.records)[k];
    if (r.activation_slot >= 0) {
      const auto it = switch_at_.find(static_cast<std::uint64_t>(r.activation_slot));
      if (it != switch_at_.end()) r.switched_at = it->second;
    }
    if (r.commit == kNever) {
      if (r.status == "not requested" && r.request != kNever) r.status = "waiting for acknowledgements: not switched";
      continue;
    }
    const auto n = static_cast<std::size_t>(std::count_if(r.switched_at.begin(), r.switched_at.end(), [](Time t) { return t != kNever; }));
    r.status = n == r.switched_at.size() ? "switched" : n == 0 ? "committed, no node switched" : "ERROR: only some nodes switched";
  }
}

TdmaRunResults RunMeter::analyse(const std::vector<TdmaNodeOutcome>& outcomes) const {
  TdmaRunResults res;
  std::vector<PacketRecord> pk = packets();
  ById by_id;
  for (const PacketRecord& p : pk) by_id[p.id].push_back(&p);  // per node in send order
  for (PacketRecord& p : pk) waits(p, res, by_id);
  res.packets = pk.size();
  if (have_master_) {
    stream_results(pk, outcomes, res);
    timed_sends(pk, res);
  }
  staging(outcomes, res);
  best_effort(pk, res);
  switches(res);
  for (const TdmaNodeOutcome& o : outcomes) {
    res.refused += o.refused;
    res.late += o.late;
    res.stale_syncs += o.stale;
    res.best_sent += o.best;
  }
  return res;
}

}  // namespace sanvp::tdma
