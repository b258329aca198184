#include "platform/tdma/node_loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/host/host_interface_driver.hpp"
#include "platform/tdma/dynamic.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

namespace {

std::string tdma_error_text(std::uint32_t code) {
  switch (code) {
    case abi::kErrConfig: return "the host's configuration was refused (role, table size, an entry's kind, route or length out of range)";
    case abi::kErrStartPast: return "the first start had already passed when the firmware read it (raise tdma.sync.start)";
    case abi::kErrNoRoute: return "an entry has no route";
    case abi::kErrSram: return "out of SRAM";
    default: return fmt::format("unknown error {}", code);
  }
}

std::vector<std::uint32_t> entry_words(const TdmaEntry& e) {
  std::uint32_t r[2] = {0, 0};
  for (std::size_t i = 0; i < e.route.size() && i < 8; ++i) r[i / 4] |= std::uint32_t{e.route[i]} << (24 - 8 * (i % 4));
  const std::uint32_t neg = e.offset_ticks < 0 ? abi::kEntryNegative : 0;
  const auto off = static_cast<std::uint32_t>(e.offset_ticks < 0 ? -e.offset_ticks : e.offset_ticks);
  return {e.pos_ticks, e.pos_slots, (e.kind << 24) | neg | static_cast<std::uint32_t>(e.route.size()), off, e.bytes, e.stream, r[0], r[1]};
}

// The node's data messages in send order, cycle by cycle, each cycle from the bank of the phase
// it lies in. A commit adds a phase; the messages not yet staged from its boundary on are
// generated again from the new bank.
class StageGen {
 public:
  struct Phase { std::uint64_t slot = 0; std::uint32_t cycle = 0; std::size_t version = 0; };
  explicit StageGen(const TdmaNodePlan& p) : p_(p), phases_{{p.first_slot, 0, 0}}, cslot_(p.first_slot) {}

  // The next message to stage (false: none left); `peek` keeps it until pop().
  bool peek(StageJob& j) {
    if (!have_) have_ = generate(next_);
    j = next_;
    return have_;
  }
  void pop() { have_ = false; }

  // From `slot` (a boundary, cycle index `cycle`) on, version `v`. Only the peeked message can
  // lie beyond it (the commit comes before the boundary's first staging): generated again.
  void switch_at(std::uint64_t slot, std::uint32_t cycle, std::size_t v) {
    phases_.push_back({slot, cycle, v});
    if (have_ && next_.slot >= slot) {
      m_ = next_.m;
      ring_end_[m_ % abi::kStageN] = saved_end_;
      have_ = false;
    }
    if (c_ >= cycle) c_ = cycle, cslot_ = slot, j_ = 0;
  }
  std::size_t version_of(std::uint32_t c) const {
    std::size_t v = 0;
    for (const Phase& ph : phases_)
      if (c >= ph.cycle) v = ph.version;
    return v;
  }
  const std::vector<Phase>& phases() const { return phases_; }

 private:
  bool generate(StageJob& job) {
    while (c_ < p_.cycles) {
      const TdmaBank& b = p_.versions.at(version_of(c_));
      if (j_ >= b.entries.size()) {
        cslot_ += b.cycle_slots;
        ++c_;
        j_ = 0;
        continue;
      }
      const TdmaEntry& e = b.entries[j_++];
      if (e.kind != abi::kKindData) continue;
      job.m = m_++;
      job.slot = cslot_ + e.pos_slots;
      const std::uint64_t start = p_.first + (job.slot - p_.first_slot) * p_.slot_ticks;
      job.rtc = start > p_.stage_ahead ? start - p_.stage_ahead : 0;
      // The ring of kStageN buffers: message m waits until message m - kStageN's slots have ended.
      std::uint64_t& end = ring_end_[job.m % abi::kStageN];
      job.rtc = std::max(job.rtc, end);
      saved_end_ = end;
      end = start + std::uint64_t{e.slots} * p_.slot_ticks;
      job.bytes = e.bytes;
      job.stream = e.stream;
      return true;
    }
    return false;
  }

  const TdmaNodePlan& p_;
  std::vector<Phase> phases_;
  std::uint32_t c_ = 0, m_ = 0;
  std::size_t j_ = 0;
  std::uint64_t cslot_ = 0, saved_end_ = 0;
  std::uint64_t ring_end_[abi::kStageN] = {};
  StageJob next_;
  bool have_ = false;
};

class TdmaLoader : public host::HostInterfaceDriver {
 public:
  TdmaLoader(host::Host& h, const TdmaNodePlan& p) : HostInterfaceDriver(h), p_(p), gen_(p) {
    if (!p.dyn) return;
    const std::size_t n = p.dyn->records->empty() ? 0 : p.dyn->records->front().armed.size();
    known_.assign(p.dyn->changes.size(), false);
    acks_.assign(p.dyn->changes.size(), std::vector<bool>(n, false));
    for (std::size_t k = 0; k < p.dyn->changes.size(); ++k)
      if (p.dyn->decisions[k].requester == p.index) own_changes_.push_back(k);
  }

  TdmaNodeOutcome run(host::AppResult& res) {
    res.phase = "waiting for the TDMA firmware's host interface";
    attach(abi::kHifMagic, "TDMA firmware");
    check_version(abi::kHifVersion, abi::kVersion, "TDMA firmware");
    const std::uint32_t max_entries = host_.pio_read(hif(abi::kHifMaxEntries));
    for (const TdmaBank& b : p_.versions)
      if (b.entries.size() > max_entries)
        throw SimError(fmt::format("{}: {} send-table entries exceed the firmware's table", host_.name(), b.entries.size()));
    done_ = alloc_completion(abi::kDoneWords);
    stage_ = host_.pio_read(hif(abi::kHifStage));
    res.phase = "loading the configuration";
    hif_write(abi::kHifRole, {p_.master ? abi::kRoleMaster : abi::kRoleSlave, p_.lead, 0, p_.cycles, static_cast<std::uint32_t>(p_.first >> 32),
                              static_cast<std::uint32_t>(p_.first), 0, p_.apply, static_cast<std::uint32_t>(done_), syncs_total(), stage_,
                              p_.first_slot});
    write_bank(0, p_.versions.at(0));
    start_firmware(abi::kHifGo);
    res.phase = "staging messages into NIC SRAM and answering the control network until the firmware completes";
    main_loop();
    read_done(done_, out_);
    return out_;
  }

 private:
  void write_bank(std::uint32_t b, const TdmaBank& bank) {
    hif_write(abi::kHifBanks + 4 * abi::kBankWords * b, {static_cast<std::uint32_t>(bank.entries.size()), bank.cycle_slots, bank.cycle_ticks, bank.tx_ticks});
    std::vector<std::uint32_t> table;
    for (const TdmaEntry& e : bank.entries) {
      const auto w = entry_words(e);
      table.insert(table.end(), w.begin(), w.end());
    }
    if (!table.empty()) hif_write(abi::kHifTable + b * abi::kBankBytes, table);
  }

  // Sync packets the node receives over the run, by the phases known so far.
  std::uint32_t syncs_total() const {
    std::uint64_t n = 0;
    const auto& ph = gen_.phases();
    for (std::size_t k = 0; k < ph.size(); ++k) {
      const std::uint32_t end = k + 1 < ph.size() ? ph[k + 1].cycle : p_.cycles;
      n += std::uint64_t{end - ph[k].cycle} * p_.versions.at(ph[k].version).syncs;
    }
    return static_cast<std::uint32_t>(n);
  }

  // Staging and the control protocol until the firmware's completion block is in host memory (a
  // commit may give the node messages to stage that its first schedule did not have).
  void main_loop() {
    host::HostMemory& mem = host_.memory();
    const std::size_t area = mem.watched_range_of(done_);
    const sc_core::sc_event& written = area < mem.watched_ranges() ? mem.watched_write(area) : mem.watched_write();
    while (mem.read_be32(done_) != abi::kDoneMagic) {
      control();
      StageJob j;
      const bool more = gen_.peek(j);
      const Time ctl = next_control();
      if (more && now_ps() >= anchor_at_ + p_.resync) read_clock(std::min(host_time(j.rtc), ctl));
      const Time at = more ? host_time(j.rtc) : kNever;
      if (more && now_ps() >= at) {
        stage(j);
        gen_.pop();
        continue;
      }
      const Time wake = std::min(at, ctl);
      if (!p_.dyn && wake == kNever) {
        sc_core::wait(written);
      } else if (!p_.dyn) {
        sc_core::wait(delay_to(wake), written);
      } else if (wake == kNever) {
        sc_core::wait(written | p_.dyn->ctl->event(p_.index));
      } else {
        sc_core::wait(delay_to(wake), written | p_.dyn->ctl->event(p_.index));
      }
    }
    finished_ = true;
  }

  // Each message: its sequence word, the header room, the payload (a pattern naming stream and
  // message), one PCI write; its data is in SRAM when the transaction ends.
  void stage(const StageJob& j) {
    std::vector<std::uint32_t> w(abi::kStageHead / 4 + (j.bytes + 3) / 4, 0);
    w[0] = j.m + 1;
    for (std::size_t i = abi::kStageHead / 4; i < w.size(); ++i) w[i] = (j.stream << 16) ^ (j.m + static_cast<std::uint32_t>(i));
    host_.pio_write(stage_ + (j.m % abi::kStageN) * abi::kStageBytes, w);
    if (out_.staged_at.size() <= j.m) out_.staged_at.resize(j.m + 1, kNever), out_.staged.resize(j.m + 1);
    out_.staged_at[j.m] = now_ps();
    out_.staged[j.m] = j;
  }

  Time delay_to_ps(Time t) const { return t > now_ps() ? t - now_ps() : 0; }
  sc_core::sc_time delay_to(Time t) const { return sc_core::sc_time::from_value(delay_to_ps(t)); }

  // When, on the host's clock, the RTC reaches `rtc`: from the last reading, at the nominal rate.
  Time host_time(std::uint64_t rtc) const {
    const double d = (static_cast<double>(rtc) - static_cast<double>(anchor_rtc_)) * p_.tick_ps;
    return std::max<Time>(0, anchor_at_ + static_cast<Time>(std::llround(d)));
  }

  // Reads the firmware's clock word by PIO every `poll` until it changes (the firmware woke and
  // published its RTC since the previous read) or until `until`. The new value is taken as the RTC
  // at the previous read, the earliest instant it can have been published: the host then runs
  // ahead of the RTC by at most one poll and one read, and so stages early, never late. No
  // change in time: the old reading stays (tried again at the next job).
  void read_clock(Time until) {
    const TdmaNodePlan& p = p_;
    const std::uint32_t w0 = host_.pio_read(hif(abi::kHifClock));
    Time before = now_ps();  // the instant the previous read sampled the word
    while (now_ps() + p.poll < until) {
      if (p.dyn && p.dyn->ctl->next_arrival(p.index) <= now_ps()) return;  // a control message first
      sc_core::wait(sc_core::sc_time::from_value(p.poll));
      const std::uint32_t w = host_.pio_read(hif(abi::kHifClock));
      if (w == w0) {
        before = now_ps();
        continue;
      }
      const Time now = before;
      // The 64-bit RTC nearest to the one the old reading predicts, with this low word.
      const std::uint64_t guess = anchor_rtc_ + static_cast<std::uint64_t>(static_cast<double>(now - anchor_at_) / p.tick_ps);
      std::uint64_t best = (guess & ~std::uint64_t{0xFFFFFFFF}) | w;
      for (const std::int64_t k : {-1, 1}) {
        const std::uint64_t c = best + static_cast<std::uint64_t>(k * (std::int64_t{1} << 32));
        if (std::llabs(static_cast<std::int64_t>(c - guess)) < std::llabs(static_cast<std::int64_t>(best - guess))) best = c;
      }
      anchor_at_ = now;
      anchor_rtc_ = best;
      return;
    }
  }

  // ---- the control protocol (dynamic.hpp) ----

  DynamicPlan& dyn() const { return const_cast<DynamicPlan&>(*p_.dyn); }
  SwitchRecord& rec(int k) const { return dyn().records->at(static_cast<std::size_t>(k)); }
  std::uint64_t rtc_of_slot(std::uint64_t slot) const { return p_.first + (slot - p_.first_slot) * p_.slot_ticks; }

  // The next instant the protocol must act at on its own: its host's next demand, the end of a
  // pending switch-over, the next control message.
  Time next_control() const {
    if (!p_.dyn || finished_) return kNever;
    Time t = dyn().ctl->next_arrival(p_.index);
    if (own_ < own_changes_.size()) t = std::min(t, dyn().changes[own_changes_[own_]].at);
    if (activating_) t = std::min(t, host_time(rtc_of_slot(act_slot_)));
    return t;
  }

  void control() {
    if (!p_.dyn || finished_) return;
    DynamicPlan& d = dyn();
    while (own_ < own_changes_.size() && d.changes[own_changes_[own_]].at <= now_ps()) request(own_changes_[own_++]);
    CtlMsg m;
    while (d.ctl->take(p_.index, m)) receive(m);
    if (activating_ && now_ps() >= host_time(rtc_of_slot(act_slot_))) {  // the switch-over is behind us
      activating_ = blocked_ = false;
      active_bank_ ^= 1;
      ++next_;
    }
    while (!activating_ && !blocked_ && next_ < d.changes.size() && known_[next_]) begin(static_cast<int>(next_));
  }

  // This host's demand: to every other host, one message after the other, and to itself.
  void request(std::size_t k) {
    DynamicPlan& d = dyn();
    rec(static_cast<int>(k)).request = now_ps();
    for (std::size_t i = 0; i < acks_[k].size(); ++i)
      if (i != p_.index) d.ctl->send(i, CtlMsg{CtlMsg::Kind::kDemand, p_.index, static_cast<int>(k)});
    rec(static_cast<int>(k)).demand_rx[p_.index] = now_ps();
    known_[k] = true;
  }

  void receive(const CtlMsg& m) {
    SwitchRecord& r = rec(m.change);
    if (m.kind == CtlMsg::Kind::kDemand) {
      r.demand_rx[p_.index] = now_ps();
      known_[static_cast<std::size_t>(m.change)] = true;
    } else if (m.kind == CtlMsg::Kind::kAck) {
      r.ack_rx[m.from] = now_ps();
      acked(m.change, m.from, m.hash);
    } else {
      r.commit_rx[p_.index] = now_ps();
      arm(m.change, m.slot, m.cycle);
    }
  }

  // Change k is next: run the scheduler on the new demand set, load the tables into the inactive
  // bank, acknowledge with the schedule's hash. A rejected demand changes nothing.
  void begin(int k) {
    DynamicPlan& d = dyn();
    const ChangeDecision& c = d.decisions[static_cast<std::size_t>(k)];
    if (!c.accepted) {
      rec(k).status = "rejected";
      ++next_;
      return;
    }
    const ScheduleVersion& v = d.versions.at(static_cast<std::size_t>(c.version));
    const std::uint64_t hash = schedule_hash(schedule_streams(d.net, v.streams, d.sched));  // this host's own scheduler run
    if (hash != v.hash) throw SimError(fmt::format("{}: the scheduler gave another schedule for change {} (not deterministic)", host_.name(), k));
    write_bank(active_bank_ ^ 1, p_.versions.at(static_cast<std::size_t>(c.version)));
    rec(k).ack_sent[p_.index] = now_ps();
    blocked_ = true;  // until its commit (or never)
    if (static_cast<int>(p_.index) == d.mute) return;
    if (p_.index == d.coordinator) {
      rec(k).ack_rx[p_.index] = now_ps();
      acked(k, p_.index, hash);
    } else {
      d.ctl->send(d.coordinator, CtlMsg{CtlMsg::Kind::kAck, p_.index, k, hash});
    }
  }

  // Coordinator: every host acknowledged change k with the same schedule: the activation boundary
  // is the first of the running cycle at least commit_lead after now, by this NIC's clock (its
  // host's reading of it); announced to every other host, one message after the other.
  void acked(int k, std::size_t from, std::uint64_t hash) {
    DynamicPlan& d = dyn();
    SwitchRecord& r = rec(k);
    const ScheduleVersion& v = d.versions.at(static_cast<std::size_t>(d.decisions[static_cast<std::size_t>(k)].version));
    if (hash != v.hash) {
      r.status = fmt::format("node {} acknowledged another schedule: not switched", from);
      return;
    }
    auto& got = acks_[static_cast<std::size_t>(k)];
    got[from] = true;
    if (std::count(got.begin(), got.end(), true) != static_cast<std::ptrdiff_t>(got.size())) return;
    const StageGen::Phase ph = gen_.phases().back();
    const std::uint64_t cyc = p_.versions.at(ph.version).cycle_slots;
    const Time due = now_ps() + d.commit_lead;
    std::uint64_t n = 1;
    while (host_time(rtc_of_slot(ph.slot + n * cyc)) < due) ++n;
    r.activation_slot = static_cast<std::int64_t>(ph.slot + n * cyc);
    r.activation_cycle = static_cast<std::int64_t>(ph.cycle + n);
    if (ph.cycle + n >= p_.cycles) {
      r.status = "past the run's end: not switched";
      return;
    }
    r.commit = now_ps();
    const auto slot = static_cast<std::uint64_t>(r.activation_slot);
    const auto cycle = static_cast<std::uint32_t>(r.activation_cycle);
    for (std::size_t i = 0; i < got.size(); ++i)
      if (i != p_.index) d.ctl->send(i, CtlMsg{CtlMsg::Kind::kCommit, p_.index, k, hash, slot, cycle});
    r.commit_rx[p_.index] = now_ps();
    arm(k, slot, cycle);
  }

  // The commit: the switch words (bank, boundary) in one PIO write, then the staging follows the
  // new bank from the boundary on. Too late for the firmware's check would switch a subset of the
  // nodes: the lead is derived so that it cannot happen, and it is an error if it does.
  void arm(int k, std::uint64_t slot, std::uint32_t cycle) {
    DynamicPlan& d = dyn();
    const std::uint64_t check = rtc_of_slot(slot) - 2 * std::uint64_t{p_.lead};  // the firmware's check (tdma_fw.cpp)
    if (now_ps() >= host_time(check))
      throw SimError(fmt::format("{}: the commit of change {} came after the firmware's check of boundary {} (tdma.ctl lead too short)",
                                 host_.name(), k, slot));
    hif_write(abi::kHifSwitchBank, {active_bank_ ^ 1u, static_cast<std::uint32_t>(slot + 1)});
    rec(k).armed[p_.index] = now_ps();
    gen_.switch_at(slot, cycle, static_cast<std::size_t>(d.decisions[static_cast<std::size_t>(k)].version));
    hif_write(abi::kHifSyncs, {syncs_total()});
    activating_ = true;
    act_slot_ = slot;
  }

  const TdmaNodePlan& p_;
  StageGen gen_;
  TdmaNodeOutcome out_;
  std::uint64_t done_ = 0;
  std::uint32_t stage_ = 0, active_bank_ = 0;
  bool finished_ = false, blocked_ = false, activating_ = false;
  std::uint64_t act_slot_ = 0;
  std::size_t next_ = 0, own_ = 0;             // the next change to process; the next of this host's own demands
  std::vector<std::size_t> own_changes_;       // the changes this host requests
  std::vector<bool> known_;                    // per change: its demand is here
  std::vector<std::vector<bool>> acks_;        // coordinator: per change, per node

  Time anchor_at_ = 0;            // the last reading of the RTC: host time and value (none yet:
  std::uint64_t anchor_rtc_ = 0;  // both started at 0, and the clocks have drifted little)

  void read_done(std::uint64_t done, TdmaNodeOutcome& o) {
    host::HostMemory& mem = host_.memory();
    auto word = [&](std::uint32_t i) { return mem.read_be32(done + 4 * i); };
    o.done = true;
    o.error = word(abi::kDoneError);
    o.sent = word(abi::kDoneSent);
    o.received = word(abi::kDoneReceived);
    o.applied = word(abi::kDoneApplied);
    o.refused = word(abi::kDoneRefused);
    o.data = word(abi::kDoneData);
    o.stage_miss = word(abi::kDoneStageMiss);
    o.best = word(abi::kDoneBest);
    o.data_rx = word(abi::kDoneDataRx);
    o.late = word(abi::kDoneLate);
    o.stale = word(abi::kDoneStale);
  }
};

}  // namespace

void run_tdma_loader(host::Host& host, const TdmaNodePlan& plan, TdmaNodeOutcome& out, host::AppResult& res) {
  TdmaLoader loader(host, plan);
  out = host::run_as_app(res, [&] { return loader.run(res); });
  // The firmware counts every packet it queued, and apart the syncs and data packets it took.
  res.received = std::uint64_t{out.received} + out.data_rx;
  res.bytes_counted = false;
  if (out.error != abi::kErrNone)
    throw SimError(fmt::format("{}: TDMA firmware stopped: {}", host.name(), tdma_error_text(out.error)));
}

}  // namespace sanvp::tdma
