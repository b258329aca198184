#include "platform/fbs/fbs_report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "platform/fbs/fbs_analysis.hpp"

namespace sanvp::fbs {

namespace {

using SkewBySlot = std::map<std::uint32_t, SlotSkew>;

struct RoundSkews {
  nlohmann::json rounds = nlohmann::json::array();
  std::vector<double> first, steady, before, mean_pair;  // ps
  std::vector<double> entering;         // ps, synchronizing rounds 1.. (round 0 starts from fbs.initial_skew)
  std::vector<std::uint32_t> entered_apart;  // those entered with a skew of half a slot or more
};

double skew_at(const SkewBySlot& m, std::uint64_t slot, bool& ok) {
  const auto it = m.find(static_cast<std::uint32_t>(slot));
  ok = it != m.end();
  return ok ? it->second.skew_ps : 0;
}

bool synced(const RunPlan& p, std::uint32_t round) { return p.sync_rounds == 0 || round < p.sync_rounds; }

// Per round: the skew entering it (its first slot's boundary), after it (the boundary that ends
// its last slot) and at the period's last boundary (the drift before the next round).
RoundSkews round_skews(const RunPlan& p, std::uint32_t S, const SkewBySlot& m) {
  RoundSkews r;
  for (std::uint32_t k = 0; k < p.rounds; ++k) {
    const std::uint64_t base = std::uint64_t{k} * p.period;
    bool ok_in = false, ok_after = false, ok_before = false;
    const double in = skew_at(m, base, ok_in), after = skew_at(m, base + S, ok_after);
    const double before = skew_at(m, base + p.period - 1, ok_before);
    nlohmann::json j{{"round", k}, {"synchronizing", synced(p, k)}};
    if (ok_in) j["skew_entering_ps"] = std::llround(in);
    if (ok_after) j["skew_after_ps"] = std::llround(after), j["mean_pair_after_ps"] = std::llround(m.at(static_cast<std::uint32_t>(base + S)).mean_pair_ps);
    if (ok_before) j["skew_before_next_ps"] = std::llround(before);
    r.rounds.push_back(j);
    if (ok_in && k > 0 && synced(p, k)) {
      r.entering.push_back(in);
      if (2 * in >= static_cast<double>(p.slot)) r.entered_apart.push_back(k);
    }
    if (!ok_after || !synced(p, k)) continue;
    (k == 0 ? r.first : r.steady).push_back(after);
    if (k > 0) r.mean_pair.push_back(m.at(static_cast<std::uint32_t>(base + S)).mean_pair_ps);  // over the rounds skew_after_round covers
    if (ok_before) r.before.push_back(before);
  }
  return r;
}

double ls_slope(const std::vector<std::pair<double, double>>& xy) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : xy) n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// After the last synchronizing round: least-squares slopes (ps per ps, shown in ppm) of the skew
// (max - min over the NICs) and of the boundary difference of the slowest and the fastest
// oscillator, which parts at exactly fbs.drift. The skew's slope is lower at first, while the
// pair that leads is not yet the extreme pair.
nlohmann::json free_run_slope(const RunPlan& p, std::uint32_t S, const SkewMeter& meter, const std::vector<SlotSkew>& v) {
  if (p.sync_rounds == 0 || p.sync_rounds >= p.rounds) return nullptr;
  const std::uint64_t from = std::uint64_t{p.sync_rounds - 1} * p.period + S;
  const auto [slow, fast] = std::minmax_element(p.ppm.begin(), p.ppm.end());
  const std::size_t is = static_cast<std::size_t>(slow - p.ppm.begin()), ifast = static_cast<std::size_t>(fast - p.ppm.begin());
  std::vector<std::pair<double, double>> skew, pair;
  for (const SlotSkew& s : v) {
    if (s.slot < from) continue;
    skew.emplace_back(static_cast<double>(s.min), s.skew_ps);
    double a = 0, b = 0;
    if (meter.boundary(is, s.slot, a) && meter.boundary(ifast, s.slot, b)) pair.emplace_back(b, a - b);
  }
  if (skew.size() < 3) return nullptr;
  return {{"from_slot", from}, {"points", skew.size()}, {"slope_ppm", ls_slope(skew) * 1e6},
          {"slowest_fastest_slope_ppm", ls_slope(pair) * 1e6}, {"drift_ppm", p.drift_ppm}};
}

nlohmann::json nic_json(const RunPlan& p, const std::vector<NodeOutcome>& out) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const NodeOutcome& o = out[i];
    a.push_back({{"node", fmt::format("n{}", p.nodes[i])}, {"ppm", p.ppm[i]}, {"start_offset_ticks", p.offset[i]}, {"finished", o.done},
                 {"pauses", o.pauses}, {"paused_ticks", o.paused_ticks}, {"refused_sends", o.refused}, {"packets_sent", o.sent},
                 {"packets_received", o.received}});
  }
  return a;
}

std::string ns(double ps) { return fmt::format("{:.3f} ns", ps / 1000.0); }

// A warning goes to the summary, as a WARNING line, and to results.fbs.warnings.
void warn(const std::string& text, std::string& summary, nlohmann::json& fbs) {
  if (text.empty()) return;
  summary += "  WARNING: " + text + "\n";
  fbs["warnings"].push_back(text);
}

// Paper section 4.4: FBS needs every NIC within half a slot of the others when a round starts
// (Eq. 11's interval keeps it there); a NIC a slot or more ahead holds the link first and the
// round cannot pull it back. A run whose interval lets the skew reach half a slot says so.
std::string precondition(const RunPlan& p, const RoundSkews& r, const Analysis& a, nlohmann::json& j) {
  j["skew_entering_round"] = skew_stats(r.entering);
  j["half_slot_ps"] = p.slot / 2;
  j["rounds_entered_half_slot_apart"] = r.entered_apart;
  if (r.entered_apart.empty()) return {};
  const auto worst = std::max_element(r.entering.begin(), r.entering.end());
  std::string rounds;
  for (std::size_t i = 0; i < r.entered_apart.size() && i < 8; ++i) rounds += fmt::format("{}{}", i ? ", " : "", r.entered_apart[i]);
  if (r.entered_apart.size() > 8) rounds += fmt::format(" and {} more", r.entered_apart.size() - 8);
  const std::int64_t eq11 = std::min(a.json["interval_eq11_printed_slots"].get<std::int64_t>(),
                                     a.json["interval_eq11_bl_minus_ks_slots"].get<std::int64_t>());
  return fmt::format("FBS's precondition (paper 4.4) does not hold: round(s) {} started with the NICs half a slot ({}) or more apart "
                     "(worst {}); the skew after such a round is bounded by neither the paper nor the model. The interval is {} slots, "
                     "Eq. 11 allows {} at {} ppm (fbs.interval)",
                     rounds, ns(static_cast<double>(p.slot) / 2), ns(*worst), p.period, eq11, p.drift_ppm);
}

}  // namespace

nlohmann::json plan_json(const RunPlan& p, const RunInput& in) {
  nlohmann::json nics = nlohmann::json::array();
  for (std::size_t i = 0; i < p.nodes.size(); ++i)
    nics.push_back({{"node", fmt::format("n{}", p.nodes[i])}, {"ppm", p.ppm[i]}, {"slot_ticks", p.clocks[i].slot_ticks},
                    {"start_rtc", p.clocks[i].start}, {"start_offset_ticks", p.offset[i]}});
  return {{"schedule", {{"kind", in.schedule.kind}, {"slots", in.schedule.slots}, {"messages", in.schedule.messages.size()}}},
          {"routing", in.routing}, {"slot_bytes", p.slot_bytes}, {"slot_ps", p.slot}, {"guard_bytes", p.guard},
          {"packet_bytes", p.packet_len}, {"interval_slots", p.period}, {"rounds", p.rounds}, {"sync_rounds", p.sync_rounds},
          {"drift_ppm", p.drift_ppm}, {"nics", nics}};
}

std::string fbs_results(ParamValues& pv, const RunPlan& plan, const RunInput& in, const SkewMeter& meter,
                        const std::vector<NodeOutcome>& outcomes, nlohmann::json& results) {
  const std::vector<SlotSkew> v = meter.skews();
  SkewBySlot m;
  for (const SlotSkew& s : v) m[s.slot] = s;
  const auto S = static_cast<std::uint32_t>(in.schedule.slots);
  const RoundSkews r = round_skews(plan, S, m);
  nlohmann::json j;
  j["rounds"] = r.rounds;
  j["skew_after_first_round"] = skew_stats(r.first);
  j["skew_after_round"] = skew_stats(r.steady);
  j["mean_pair_skew_after_round"] = skew_stats(r.mean_pair);
  j["skew_before_next_round"] = skew_stats(r.before);
  j["free_run"] = free_run_slope(plan, S, meter, v);
  j["nics"] = nic_json(plan, outcomes);
  const Analysis a = analyse(pv, in, plan);
  j["analysis"] = a.json;
  results["fbs"] = j;
  std::uint64_t refused = 0;
  for (const auto& o : outcomes) refused += o.refused;
  std::string s = fmt::format("FBS: {} over {} NICs, {}-slot round, slot {} ({} B), interval {} slots, {} rounds, drift {} ppm\n",
                              in.schedule.kind, plan.nodes.size(), S, format_time(plan.slot), plan.slot_bytes, plan.period, plan.rounds,
                              plan.drift_ppm);
  const auto& st = j["skew_after_round"];
  const bool steady = st.value("count", 0) > 0;  // rounds 1.. measured
  const auto stat = [&](const char* key) { return steady ? ns(st[key].get<double>()) : std::string("-"); };
  if (steady || !r.first.empty())
    s += fmt::format("  skew after a round: max {}, mean {} (rounds 1..); after round 0: {}; before the next round: max {}\n", stat("max_ps"),
                     stat("mean_ps"), r.first.empty() ? "-" : ns(r.first[0]),
                     r.before.empty() ? "-" : ns(*std::max_element(r.before.begin(), r.before.end())));
  s += a.summary;
  if (a.model && (steady || !r.first.empty())) {
    const double worst = std::max(steady ? st["max_ps"].get<double>() : 0.0, r.first.empty() ? 0.0 : r.first[0]);
    results["fbs"]["within_model_bound"] = worst <= static_cast<double>(a.model);
    s += fmt::format("  measured worst {} is {} the model's bound\n", ns(worst), worst <= static_cast<double>(a.model) ? "within" : "ABOVE");
  }
  warn(precondition(plan, r, a, results["fbs"]), s, results["fbs"]);
  if (refused)
    warn(fmt::format("{} timed sync sends refused (start already past; see results.fbs.nics): the firmware was late for those slots. "
                     "Its path per sync slot must fit the slot ({} here): longer slots (fbs.slot_bytes) or a faster core (nic.core.clock) "
                     "fix it (docs/fbs.md, \"The firmware's budget per slot\")",
                     refused, format_time(plan.slot)), s, results["fbs"]);
  results["fbs"]["refused_sends"] = refused;
  return s;
}

}  // namespace sanvp::fbs
