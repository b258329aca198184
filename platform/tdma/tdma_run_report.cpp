#include "platform/tdma/tdma_run_report.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace sanvp::tdma {

namespace {

std::string us(Time t) { return fmt::format("{:.3f}", static_cast<double>(t) / 1e6); }

nlohmann::json stream_json(const StreamResult& s) {
  nlohmann::json j = {{"id", s.id}, {"src", s.src}, {"dst", s.dst}, {"sync", s.sync}, {"admitted", s.admitted}};
  if (!s.admitted) {
    j.update({{"reason", s.reason}, {"sent", s.sent}});
    return j;
  }
  j.update({{"expected", s.expected}, {"sent", s.sent}, {"delivered", s.delivered}, {"deadline_misses", s.deadline_misses},
            {"stage_misses", s.stage_misses}, {"blocked_packets", s.blocked_packets}, {"blocked_ps", s.blocked},
            {"early_wait_ps", s.early_wait}, {"latency_min_ps", s.latency_min}, {"latency_mean_ps", s.latency_mean},
            {"latency_max_ps", s.latency_max}, {"jitter_ps", s.jitter}, {"worst_slack_ps", s.worst_slack},
            {"first_slot", s.first_slot}, {"last_slot", s.last_slot}});
  return j;
}

nlohmann::json collision_json(const Collision& c) {
  return {{"time_ps", c.at}, {"waited_ps", c.waited}, {"switch", c.sw}, {"port", c.port},
          {"packet", {{"id", c.packet}, {"stream", c.stream}, {"slot", c.slot}}},
          {"holder", {{"id", c.holder}, {"stream", c.holder_stream}, {"slot", c.holder_slot}}}};
}

std::string stream_table(const TdmaRunResults& r) {
  std::string out = fmt::format("{:>8} {:>9} {:>8} {:>8} {:>9} {:>7} {:>7} {:>11} {:>11} {:>11} {:>10} {:>11} {:>11}\n", "stream", "src->dst",
                                "expected", "sent", "delivered", "missed", "staged", "lat min us", "lat mean us", "lat max us", "jitter us",
                                "blocked us", "early-wait us");
  for (const StreamResult& s : r.streams) {
    const std::string id = fmt::format("{}{}", s.id, s.sync ? "s" : "");
    if (!s.admitted) {
      out += fmt::format("{:>8} {:>9} REJECTED by the scheduler (not sent)\n", id, fmt::format("{}->{}", s.src, s.dst));
      continue;
    }
    out += fmt::format("{:>8} {:>9} {:>8} {:>8} {:>9} {:>7} {:>7} {:>11} {:>11} {:>11} {:>10} {:>11} {:>11}\n", id, fmt::format("{}->{}", s.src, s.dst),
                       s.expected, s.sent, s.delivered, s.deadline_misses, s.stage_misses, us(s.latency_min), fmt::format("{:.3f}", s.latency_mean / 1e6),
                       us(s.latency_max), us(s.jitter), us(s.blocked), us(s.early_wait));
  }
  return out;
}

nlohmann::json times_json(const std::vector<Time>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const Time t : v) a.push_back(t == kNever ? nlohmann::json(nullptr) : nlohmann::json(t));
  return a;
}

// The clock-sync precision the switch instants are held to: two slaves' bounds (sync_run.hpp).
Time spread_bound(const TdmaRunPlan& p) {
  std::vector<double> b;
  for (const SlaveSync& s : p.sync.slaves) b.push_back(s.bound_ps);
  std::sort(b.rbegin(), b.rend());
  return static_cast<Time>((b.empty() ? 0 : b.size() == 1 ? b[0] : b[0] + b[1]) + 0.5);
}

Time spread(const std::vector<Time>& v) {
  Time lo = kNever, hi = 0;
  for (const Time t : v)
    if (t != kNever) lo = std::min(lo, t), hi = std::max(hi, t);
  return lo == kNever ? 0 : hi - lo;
}

nlohmann::json switch_json(const TdmaRunPlan& p) {
  nlohmann::json a = nlohmann::json::array();
  const DynamicPlan& d = *p.dyn;
  for (std::size_t k = 0; k < d.changes.size(); ++k) {
    const SwitchRecord& r = (*d.records)[k];
    const ChangeDecision& c = d.decisions[k];
    nlohmann::json j = {{"change", k}, {"at_ps", d.changes[k].at}, {"what", c.what}, {"requester", p.sync.nodes[c.requester]},
                        {"accepted", c.accepted}, {"status", r.status}, {"request_ps", times_json({r.request})[0]},
                        {"demand_rx_ps", times_json(r.demand_rx)}, {"ack_sent_ps", times_json(r.ack_sent)}, {"ack_rx_ps", times_json(r.ack_rx)},
                        {"commit_ps", times_json({r.commit})[0]}, {"commit_rx_ps", times_json(r.commit_rx)}, {"armed_ps", times_json(r.armed)},
                        {"activation_slot", r.activation_slot}, {"activation_cycle", r.activation_cycle},
                        {"switched_at_ps", times_json(r.switched_at)}, {"spread_ps", spread(r.switched_at)}};
    if (!c.accepted) j["reason"] = c.reason;
    if (c.accepted) j["schedule_hash"] = fmt::format("{:016x}", d.versions[static_cast<std::size_t>(c.version)].hash);
    a.push_back(j);
  }
  return a;
}

std::string t_or(Time t) { return t == kNever ? std::string("-") : format_time(t); }

std::string switch_text(const TdmaRunPlan& p) {
  const DynamicPlan& d = *p.dyn;
  if (d.changes.empty()) return {};
  std::string out = fmt::format("stream changes over the control network (latency {}, {} per byte, 64-byte messages; coordinator n{}): switch-over lead "
                                "{} after the last acknowledgement\n", format_time(d.latency), format_time(d.per_byte), p.sync.master,
                                format_time(d.commit_lead));
  for (std::size_t k = 0; k < d.changes.size(); ++k) {
    const SwitchRecord& r = (*d.records)[k];
    const ChangeDecision& c = d.decisions[k];
    out += fmt::format("change {} at {} from n{}: {}: {}\n", k, format_time(d.changes[k].at), p.sync.nodes[c.requester], c.what,
                       c.accepted ? r.status : "REJECTED by the admission test, the running schedule is kept: " + c.reason);
    if (!c.accepted) continue;
    Time last_ack = 0;
    for (std::size_t i = 0; i < p.sync.nodes.size(); ++i) {
      out += fmt::format("  n{}: demand {}, loaded+ack {}, ack at coordinator {}, commit {}, armed {}, switched {}\n", p.sync.nodes[i], t_or(r.demand_rx[i]),
                         t_or(r.ack_sent[i]), t_or(r.ack_rx[i]), t_or(r.commit_rx[i]), t_or(r.armed[i]), t_or(r.switched_at[i]));
      if (r.ack_rx[i] != kNever) last_ack = std::max(last_ack, r.ack_rx[i]);
    }
    if (r.activation_slot >= 0)
      out += fmt::format("  last ack {}, commit {}, activation: cycle {} (slot {}); switch instants spread {} (sync precision bound {})\n",
                         t_or(last_ack), t_or(r.commit), r.activation_cycle, r.activation_slot, format_time(spread(r.switched_at)),
                         format_time(spread_bound(p)));
  }
  return out;
}

}  // namespace

nlohmann::json run_plan_json(const TdmaRunPlan& p) {
  return {{"streams", p.streams_name}, {"network", p.sync.network}, {"cycle_slots", p.schedule.cycle}, {"slot_ps", p.sync.slot},
          {"cycles", p.cycles}, {"sync", p.sync_on}, {"master", p.sync.master}, {"early", p.early}, {"t_a_ps", p.t_a},
          {"margin_ps", p.margin}, {"t_early_ps", p.t_early}, {"early_offset_ticks", p.early_ticks}, {"tick_ps", p.sync.tick_ps},
          {"payload_per_slot", p.payload}, {"lead_ps", p.lead}, {"stage_ahead_ps", p.stage_ahead},
          {"staging", "host PIO burst writes (one PCI transaction per message) into a ring of 8 SRAM buffers, stage_ahead before the slot on the host's nominal clock"}};
}

nlohmann::json run_results_json(const TdmaRunPlan& p, const TdmaRunResults& r, const std::vector<TdmaNodeOutcome>& outcomes) {
  nlohmann::json j = run_plan_json(p);
  j["streams_results"] = nlohmann::json::array();
  for (const StreamResult& s : r.streams) j["streams_results"].push_back(stream_json(s));
  j["totals"] = {{"packets", r.packets}, {"deadline_misses", r.deadline_misses}, {"stage_misses", r.stage_misses},
                 {"reserved_blocked_packets", r.reserved_blocked}, {"blocked_ps", r.blocked}, {"early_wait_ps", r.early_wait},
                 {"refused_sends", r.refused}, {"late_sends", r.late}, {"stale_syncs", r.stale_syncs}};
  j["best_effort"] = {{"load", p.best_effort}, {"bytes", p.best_bytes}, {"sent", r.best_seen}, {"delivered", r.best_delivered},
                      {"in_reserved_slots", r.best_in_reserved}};
  j["first_collision"] = r.first_collision ? collision_json(*r.first_collision) : nlohmann::json(nullptr);
  j["staging_slack_ps"] = r.staging_slack == kNever ? nlohmann::json(nullptr) : nlohmann::json(r.staging_slack);
  j["timed_sends"] = {{"checked", r.timed_checked}, {"max_error_ps", r.max_send_error}};
  nlohmann::json nics = nlohmann::json::array();
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const TdmaNodeOutcome& o = outcomes[i];
    nics.push_back({{"node", p.sync.nodes[i]}, {"finished", o.done}, {"sent", o.sent}, {"data_sent", o.data}, {"stage_misses", o.stage_miss},
                    {"data_received", o.data_rx}, {"syncs_received", o.received}, {"syncs_applied", o.applied}, {"stale_syncs", o.stale},
                    {"refused", o.refused}, {"late", o.late}});
  }
  j["nics"] = nics;
  j["switch_overs"] = switch_json(p);
  j["switch_spread_bound_ps"] = spread_bound(p);
  j["switch_lead_ps"] = p.dyn->commit_lead;
  return j;
}

std::string run_results(const TdmaRunPlan& p, const TdmaRunResults& r, const std::vector<TdmaNodeOutcome>& outcomes, nlohmann::json& results) {
  results["tdma_run"] = run_results_json(p, r, outcomes);
  std::string out = fmt::format("TDMA run of {} on {}: cycle {} slots x {} = {}, {} cycles, sync {} (master n{}), early sending {}\n",
                                p.streams_name, p.sync.network, p.schedule.cycle, format_time(p.sync.slot),
                                format_time(p.sync.slot * static_cast<Time>(p.schedule.cycle)), p.cycles, p.sync_on ? "on" : "OFF", p.sync.master,
                                p.early ? fmt::format("on: T_early = T_a {} + T_margin {} = {} after the previous slot's start", format_time(p.t_a),
                                                      format_time(p.margin), format_time(p.t_early))
                                        : std::string("off (each message at its slot start)"));
  out += stream_table(r);
  out += switch_text(p);
  out += fmt::format("totals: {} packets, {} deadline misses, {} staging misses, {} reserved packets blocked ({} us), early-sending wait {} us, "
                     "{} refused and {} late timed sends, {} stale syncs\n",
                     r.packets, r.deadline_misses, r.stage_misses, r.reserved_blocked, us(r.blocked), us(r.early_wait), r.refused, r.late, r.stale_syncs);
  if (p.best_effort > 0)
    out += fmt::format("best effort (load {}): {} packets sent, {} delivered, {} in a slot where a link of their route is reserved\n", p.best_effort,
                       r.best_seen, r.best_delivered, r.best_in_reserved);
  if (r.first_collision) {
    const Collision& c = *r.first_collision;
    out += fmt::format("first collision at {}: {} port {}: packet of stream {} (slot {}) waited {} for the output held by {} (slot {})\n",
                       format_time(c.at), c.sw, c.port, c.stream, c.slot, format_time(c.waited),
                       c.holder_stream >= 0 ? fmt::format("stream {}", c.holder_stream) : std::string("a best-effort/unknown packet"), c.holder_slot);
  } else {
    out += "no collision: no reserved packet waited for an output held by a packet of its own or a later slot\n";
  }
  if (r.staging_slack != kNever) out += fmt::format("staging slack (firmware check - data in SRAM), smallest: {}\n", format_time(r.staging_slack));
  out += fmt::format("timed sends of the master (its RTC never moves): {} checked, largest error {} ps\n", r.timed_checked, r.max_send_error);
  return out;
}

}  // namespace sanvp::tdma
