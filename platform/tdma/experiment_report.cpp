#include "platform/tdma/experiment_report.hpp"

#include <fmt/format.h>

#include "platform/sim/report.hpp"

namespace sanvp::tdma {
namespace {

std::string us(Time t) { return fmt::format("{:.3f}", static_cast<double>(t) / 1e6); }
Time latency_bound(const ExpResult& r) { return r.t_setup + r.t_maxdrift; }

// tau of Eq. 5.1 the thesis's statement implies: eta = 0.9 at 3400 bytes -> c tau = M / 9.
Time paper_tau(const ThesisInputs& t) { return static_cast<Time>(t.paper_90pct_bytes) * t.cp / 9; }

nlohmann::json point_json(const ExpResult& r) {
  const ExpPoint& p = r.point;
  nlohmann::json j = {{"id", p.id}, {"group", p.group}, {"label", p.label}, {"streams", p.streams}, {"network", p.net}, {"sets", p.sets},
                      {"flags", p.flags}, {"cycles", p.cycles}, {"early", p.early}, {"best_effort", p.best_effort}, {"margin_ps", p.margin},
                      {"payload", p.payload}, {"exit_code", r.exit_code}, {"seconds", r.seconds}, {"report", r.report}, {"ok", r.ok}};
  j["derived"] = {{"t_maxdrift_ps", r.t_maxdrift}, {"t_a_ps", r.t_a}, {"t_setup_ps", r.t_setup}, {"latency_bound_ps", latency_bound(r)},
                  {"slot_ps", r.slot}, {"tick_ps", r.tick}, {"cp_ps", r.cp}};
  j["measured"] = {{"packets", r.packets}, {"deadline_misses", r.misses}, {"stage_misses", r.stage_misses},
                   {"blocked_packets", r.blocked_packets}, {"blocked_ps", r.blocked}, {"early_wait_ps", r.early_wait},
                   {"best_effort_sent", r.best_sent}, {"best_effort_delivered", r.best_delivered}, {"latency_max_ps", r.latency_max},
                   {"jitter_max_ps", r.jitter_max}, {"first_collision", r.has_collision}};
  if (r.excess_stream >= 0) j["measured"].update({{"latency_excess_over_ideal_ps", r.excess}, {"latency_excess_stream", r.excess_stream}});
  if (p.group == "utilization")
    j["measured"].update({{"latency_mean_ps", r.latency_mean_util}, {"latency_min_ps", r.latency_min_util}, {"eta", r.eta_measured},
                          {"tau_ps", r.tau_measured}});
  if (p.group == "margin") j["margin_safe"] = margin_safe(r);
  return j;
}

nlohmann::json analytic_json(const std::vector<ExpResult>& res) {
  const ThesisInputs t;
  const Time eq44 = slot_eq44(t.t_setup, t.t_maxdrift, t.message, t.cp);
  const MeshOverheads m = mesh_overheads(t, eq44);
  nlohmann::json util = nlohmann::json::array();
  for (const ExpResult& r : res)
    if (r.point.group == "utilization")
      util.push_back({{"bytes", r.point.payload}, {"eta_eq51_tau_paper", utilization_eq51(paper_tau(t), r.point.payload, t.cp)},
                      {"eta_eq51_tau_setup", utilization_eq51(t.t_setup, r.point.payload, t.cp)},
                      {"eta_eq51_tau_measured", utilization_eq51(r.tau_measured, r.point.payload, r.cp)}, {"eta_measured", r.eta_measured}});
  return {{"eq44", {{"t_setup_ps", t.t_setup}, {"t_maxdrift_ps", t.t_maxdrift}, {"message_bytes", t.message}, {"cp_ps", t.cp},
                    {"slot_ps", eq44}, {"paper_slot_us", t.paper_slot_us}}},
          {"latency", {{"bound_ps", t.t_setup + t.t_maxdrift}, {"paper_us", t.paper_latency_us}}},
          {"eq51", {{"tau_paper_ps", paper_tau(t)}, {"tau_rule", "eta = 0.9 at 3400 bytes (thesis 5.3): c tau = 3400 / 9 bytes"},
                    {"paper_point", {{"bytes", t.paper_90pct_bytes}, {"eta", 0.9}}}, {"points", util}}},
          {"mesh", {{"separate_ps", m.separate}, {"separate_pct", m.separate_pct}, {"paper_separate_pct", t.paper_ovh_separate},
                    {"scheduled_ps", m.scheduled}, {"scheduled_pct", m.scheduled_pct}, {"paper_scheduled_pct", t.paper_ovh_scheduled},
                    {"scheduled_eq44_slot_pct", m.scheduled_eq44_pct}}}};
}

std::string appendix_md(const std::vector<ExpResult>& res) {
  std::string s = "| point | cycles | reserved packets | deadline misses | staging misses | blocked packets | blocked (us) | early-sending wait (us) | "
                  "best effort sent / delivered | worst latency (us) | worst jitter (us) | latency beyond ideal clocks, worst stream (us) | "
                  "T_setup + T_maxdrift (us) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ExpResult& r : res) {
    if (r.point.group != "appendix" && r.point.group != "appendix-ideal") continue;
    const std::string excess = r.excess_stream < 0 ? "-" : fmt::format("{:.3f} (stream {})", static_cast<double>(r.excess) / 1e6, r.excess_stream);
    s += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} + {} = {} |\n", r.point.label, r.point.cycles,
                     r.packets, r.misses, r.stage_misses, r.blocked_packets, us(r.blocked), us(r.early_wait), r.best_sent, r.best_delivered,
                     us(r.latency_max), us(r.jitter_max), excess, us(r.t_setup), us(r.t_maxdrift), us(latency_bound(r)));
  }
  return s;
}

std::string margin_md(const std::vector<ExpResult>& res) {
  std::string s = "| margin | T_a + margin (us) | T_maxdrift (us) | cycles | deadline misses | blocked packets | blocked (us) | first collision | "
                  "worst jitter (us) | T_setup + T_maxdrift (us) | expected |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ExpResult& r : res) {
    if (r.point.group != "margin") continue;
    s += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.point.label, us(r.t_a + r.point.margin), us(r.t_maxdrift),
                     r.point.cycles, r.misses, r.blocked_packets, us(r.blocked), r.has_collision ? "yes" : "none", us(r.jitter_max), us(latency_bound(r)),
                     margin_safe(r) ? "no blocking (margin >= T_maxdrift - T_a)" : "blocking possible");
  }
  return s;
}

std::string utilization_md(const std::vector<ExpResult>& res) {
  const ThesisInputs t;
  std::string s = fmt::format("| M (bytes) | Eq. 5.1, paper tau = {} us | Eq. 5.1, tau = T_setup = {} us | measured latency mean (us) | "
                              "measured tau (us) | measured eta |\n|---|---|---|---|---|---|\n", us(paper_tau(t)), us(t.t_setup));
  for (const ExpResult& r : res) {
    if (r.point.group != "utilization") continue;
    s += fmt::format("| {} | {:.3f} | {:.3f} | {:.3f} | {} | {:.3f} |\n", r.point.payload, utilization_eq51(paper_tau(t), r.point.payload, t.cp),
                     utilization_eq51(t.t_setup, r.point.payload, t.cp), r.latency_mean_util / 1e6, us(r.tau_measured), r.eta_measured);
  }
  return s;
}

std::string analytic_md() {
  const ThesisInputs t;
  const Time eq44 = slot_eq44(t.t_setup, t.t_maxdrift, t.message, t.cp);
  const MeshOverheads m = mesh_overheads(t, eq44);
  return fmt::format("| quantity | thesis | computed from the thesis's inputs |\n|---|---|---|\n"
                     "| Eq. 4.4 slot: T_setup {} + T_maxdrift {} + {} B / 160 B/us | {} us | {} us |\n"
                     "| worst-case latency T_setup + T_maxdrift | {} us | {} us |\n"
                     "| 4x4 mesh, separated sync: ({} + {}) x {} us + {} us margin, per {} us | {} % | {:.2f} % ({} us) |\n"
                     "| 4x4 mesh, sync slots among the traffic: {} slots x {} us | {} % | {:.2f} % ({} us); with the Eq. 4.4 slot {:.3f} % |\n",
                     us(t.t_setup), us(t.t_maxdrift), t.message, t.paper_slot_us, us(eq44), t.paper_latency_us, us(t.t_setup + t.t_maxdrift),
                     t.submasters, t.slaves, us(t.sync_msg), us(t.mesh_margin), us(t.sync_period), t.paper_ovh_separate, m.separate_pct,
                     us(m.separate), t.submasters + t.slaves, us(t.mesh_slot), t.paper_ovh_scheduled, m.scheduled_pct, us(m.scheduled),
                     m.scheduled_eq44_pct);
}

}  // namespace

bool margin_safe(const ExpResult& r) { return r.point.margin + r.t_a >= r.t_maxdrift; }

nlohmann::json experiment_json(const ExperimentOptions& o, const std::vector<ExpResult>& r) {
  nlohmann::json pts = nlohmann::json::array();
  for (const ExpResult& x : r) pts.push_back(point_json(x));
  return {{"seed", o.seed}, {"cycles", o.cycles}, {"quick", o.quick}, {"jobs", o.jobs}, {"points", pts}, {"analytic", analytic_json(r)},
          {"definitions", {{"t_maxdrift", "sum of the two widest clock-sync bounds (resolution + transmission-time error + drift x period)"},
                           {"t_setup", "T_a: the header's time through the longest reserved route (ld + h (rd + sd + ld)); the DMA is set up before the start"},
                           {"jitter", "per stream max - min latency (release to last byte stored); the table gives the largest"}}}};
}

std::string experiment_markdown(const ExperimentOptions& o, const std::vector<ExpResult>& r) {
  return fmt::format("# TDMA experiments (`sanvp tdma experiment`, seed {}{})\n\n"
                     "## Appendix A streams on network A: early sending x best-effort load\n\n{}\n"
                     "## Margin sweep (T_margin below, at and above the drift bound)\n\n{}\n"
                     "## Utilization vs packet size (Eq. 5.1, Fig. 5.2)\n\n{}\n"
                     "## Analytic: Eq. 4.4 and the 4x4-mesh sync overheads\n\n{}\n```\n{}```\n",
                     o.seed, o.quick ? ", quick" : "", appendix_md(r), margin_md(r), utilization_md(r), analytic_md(), experiment_summary(r));
}

void write_experiment(const ExperimentOptions& o, const std::vector<ExpResult>& r) {
  Report rep;
  const auto json = rep.output(o.out + "/results.json", "--out", true);
  rep.write(rep.output(o.out + "/table.md", "--out"), experiment_markdown(o, r));
  rep.write_json(json, experiment_json(o, r), 1);
}

std::string experiment_summary(const std::vector<ExpResult>& r) {
  std::size_t ok = 0, failed = 0;
  std::string s;
  for (const ExpResult& x : r) {
    if (!x.ok) {
      ++failed;
      s += fmt::format("  {}: run failed (exit {}, see {})\n", x.point.id, x.exit_code, x.report);
      continue;
    }
    ++ok;
    const bool safe = x.point.group != "margin" || margin_safe(x);
    if (safe && (x.misses || x.blocked_packets)) s += fmt::format("  {}: {} misses, {} blocked packets at a safe margin\n", x.point.id, x.misses, x.blocked_packets);
  }
  return fmt::format("tdma experiment: {} runs completed, {} failed\n", ok, failed) + s;
}

}  // namespace sanvp::tdma
