#include "platform/fbs/experiment_report.hpp"

#include <fmt/format.h>

namespace sanvp::fbs {

const char* const kThresholdRule =
    "Where a point changes link.cp or fc.bl, ks keeps the paper's distance from the top of the buffer (bl - ks = 11 flits) unless "
    "the flits still arriving after a STOP at this cp need more room (ks = bl - max(11, ceil((2 ld + 2 fc)/cp) - 1), the flow "
    "controller's overflow check), and kg stays 17 unless the link would starve ((kg + 1) cp >= 2 ld + 2 fc + sd). The series "
    "'paper ks/kg' keeps ks = 53, kg = 17 where the flow controller accepts them.";

namespace {

std::string ns(Ps v) { return v < 0 ? "-" : fmt::format("{:.1f}", static_cast<double>(v) / 1000.0); }
std::string pct(std::int64_t h) { return format_hundredths(h); }
std::string opt_int(std::int64_t v) { return v < 0 ? "-" : std::to_string(v); }

nlohmann::json analytic_json(const ExpAnalytic& a, const ExpNetwork& net) {
  return {{"network", net.name()}, {"network_args", net.args()}, {"sync_slots", net.sync_slots()}, {"bound_bl_minus_ks_ps", a.bl_ks},
          {"bound_printed_ps", a.bl_kg}, {"interval_eq11_bl_minus_ks_slots", a.si_bl_ks}, {"interval_eq11_printed_slots", a.si_bl_kg},
          {"overhead_eq12_bl_minus_ks_hundredths", a.ovh_bl_ks}, {"overhead_eq12_printed_hundredths", a.ovh_bl_kg}};
}

nlohmann::json sim_json(const ExpSimulated& s) {
  if (!s.ran) return nullptr;
  return {{"exit_code", s.exit_code}, {"seconds", s.seconds}, {"report", s.report}, {"shared_run", !s.shared_with.empty()},
          {"skew_worst_ps", s.worst}, {"skew_after_round_max_ps", s.steady_max}, {"skew_after_round_mean_ps", s.steady_mean},
          {"skew_after_first_round_ps", s.first}, {"guard_bytes", s.guard}, {"refused_sends", s.refused}, {"dead_zone_ps", s.dead_zone},
          {"model_bound_ps", s.model_bound}, {"interval_eq11_from_skew_slots", s.si}, {"overhead_eq12_from_skew_hundredths", s.overhead}};
}

nlohmann::json point_json(const ExpResult& r) {
  const ExpPoint& p = r.point;
  nlohmann::json paper = nlohmann::json::object();
  if (p.paper_skew >= 0) paper["skew_ps"] = p.paper_skew;
  if (p.paper_si >= 0) paper["interval_slots"] = p.paper_si, paper["overhead_hundredths"] = p.paper_overhead;
  return {{"id", p.id}, {"group", p.group}, {"series", p.series}, {"label", p.label}, {"sets", p.sets},
          {"inputs", {{"ld_ps", r.in.ld}, {"cp_ps", r.in.cp}, {"sd_ps", r.in.sd}, {"rd_ps", r.in.rd}, {"fc_ps", r.in.fc}, {"bl", r.in.bl},
                      {"ks", r.in.ks}, {"kg", r.in.kg}, {"slot_bytes", r.in.slot_bytes}, {"drift_ppm", r.in.drift_ppm}}},
          {"paper", paper}, {"analytic", analytic_json(r.paper_net, p.paper_net)},
          {"analytic_simulated_network", analytic_json(r.sim_net, p.sim_net)}, {"simulate", p.simulate}, {"note", p.note},
          {"simulated", sim_json(r.sim)}, {"verdict", r.verdict}, {"within_model_bound", r.within_model}};
}

std::string sim_cell(const ExpSimulated& s) {
  if (s.worst < 0) return "-";
  return s.steady_mean >= 0 ? fmt::format("{} ({})", ns(s.worst), ns(s.steady_mean)) : ns(s.worst);
}

// Table 3 and Table 4: si and overhead, the paper's, Eq. 11/12's and those the simulated skew gives.
std::string table_md(const std::string& group, const std::vector<ExpResult>& v) {
  const bool t4 = group == "table4";
  std::string s = t4 ? "| drift | ports | simulated on | paper si | paper ovh % | Eq. 10 m=4 bl-ks / bl-kg (ns) | Eq. 11 si | Eq. 12 ovh % | "
                       "Eq. 10 on the simulated tree (ns) | simulated skew worst (mean), ns | model bound (ns) | si from it | ovh % from it | verdict |\n"
                       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                     : "| drift | ports | paper si | paper ovh % | Eq. 8 bl-ks / bl-kg (ns) | Eq. 11 si | Eq. 12 ovh % | "
                       "simulated skew worst (mean), ns | model bound (ns) | si from it | ovh % from it | verdict |\n"
                       "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ExpResult& r : v) {
    if (r.point.group != group) continue;
    const ExpAnalytic& a = r.paper_net;
    std::string row = fmt::format("| {} ppm | {} | ", r.in.drift_ppm, r.point.paper_net.ports);
    if (t4) row += fmt::format("{} | ", r.point.sim_net.levels == r.point.paper_net.levels ? "the same tree" : r.point.sim_net.name());
    row += fmt::format("{} | {} | {} / {} | {} / {} | {} / {} | ", r.point.paper_si, pct(r.point.paper_overhead), ns(a.bl_ks), ns(a.bl_kg),
                       a.si_bl_ks, a.si_bl_kg, pct(a.ovh_bl_ks), pct(a.ovh_bl_kg));
    if (t4) row += fmt::format("{} / {} | ", ns(r.sim_net.bl_ks), ns(r.sim_net.bl_kg));
    row += sim_cell(r.sim) + " | ";
    row += ns(r.sim.model_bound) + " | ";
    s += row + fmt::format("{} | {} | {} |\n", opt_int(r.sim.si), pct(r.sim.overhead), r.verdict);
  }
  return s;
}

// Figures 4-6: the skew per point, the paper's, both readings, the model's bound, simulated.
std::string figure_md(const std::string& group, const std::vector<ExpResult>& v) {
  const bool tree = group == "fig6";
  std::string s = fmt::format("| series | point | ks / kg | guard B | paper (ns) | {} bl-ks / bl-kg (ns) | {}dead zone (ns) | model bound (ns) | "
                              "simulated skew worst (mean), ns | verdict | note |\n|---|---|---|---|---|---|{}---|---|---|---|---|\n",
                              tree ? "Eq. 10 m=4" : "Eq. 8", tree ? "Eq. 10 on the simulated tree (ns) | " : "", tree ? "---|" : "");
  for (const ExpResult& r : v) {
    if (r.point.group != group) continue;
    std::string row = fmt::format("| {} | {} | {} / {} | {} | {} | {} / {} | ", r.point.series.empty() ? "-" : r.point.series, r.point.label,
                                  r.in.ks, r.in.kg, opt_int(r.sim.guard), ns(r.point.paper_skew), ns(r.paper_net.bl_ks), ns(r.paper_net.bl_kg));
    if (tree) row += fmt::format("{} / {} | ", ns(r.sim_net.bl_ks), ns(r.sim_net.bl_kg));
    s += row + fmt::format("{} | {} | {} | {} | {} |\n", ns(r.sim.dead_zone), ns(r.sim.model_bound), sim_cell(r.sim), r.verdict,
                           r.point.note.empty() ? "-" : r.point.note);
  }
  return s;
}

}  // namespace

nlohmann::json experiment_json(const ExperimentOptions& o, const std::vector<ExpResult>& r) {
  nlohmann::json pts = nlohmann::json::array();
  for (const ExpResult& x : r) pts.push_back(point_json(x));
  return {{"command", "sanvp fbs experiment"}, {"seed", o.seed}, {"rounds", o.rounds}, {"tree_levels", o.tree_levels}, {"quick", o.quick},
          {"only", o.only}, {"threshold_rule", kThresholdRule}, {"points", pts}};
}

std::string experiment_markdown(const std::string& group, const std::vector<ExpResult>& r) {
  bool any = false;
  for (const ExpResult& x : r) any = any || x.point.group == group;
  if (!any) return {};
  return group == "table3" || group == "table4" ? table_md(group, r) : figure_md(group, r);
}

void write_experiment(const ExperimentOptions& o, const std::vector<ExpResult>& r) {
  Report rep;
  const auto json = rep.output(o.out + "/fbs_experiment.json", "--out", true);
  std::string all = fmt::format("# FBS experiments (`sanvp fbs experiment`, seed {}, {} rounds per point)\n\n{}\n", o.seed, o.rounds, kThresholdRule);
  for (const auto& g : experiment_groups()) {
    const std::string md = experiment_markdown(g, r);
    if (md.empty()) continue;
    rep.write(rep.output(fmt::format("{}/{}.md", o.out, g), "--out"), md);
    all += fmt::format("\n## {}\n\n{}", g, md);
  }
  rep.write(rep.output(o.out + "/fbs_experiment.md", "--out"), all + "\n```\n" + experiment_summary(r) + "```\n");
  rep.write_json(json, experiment_json(o, r), 1);
}

std::string experiment_summary(const std::vector<ExpResult>& r) {
  std::size_t ran = 0, above = 0, above_model = 0;
  std::string s;
  for (const ExpResult& x : r) {
    if (x.sim.worst < 0) continue;
    ++ran;
    const bool up = x.sim.worst > std::min(x.sim_net.bl_ks, x.sim_net.bl_kg);
    above += up;
    above_model += !x.within_model;
    if (up)
      s += fmt::format("  {} {}{}: simulated {} ns > {} ns (bl-ks) / {} ns (bl-kg); {}\n", x.point.group, x.point.series.empty() ? "" : x.point.series + ", ",
                       x.point.label, ns(x.sim.worst), ns(x.sim_net.bl_ks), ns(x.sim_net.bl_kg), x.verdict);
  }
  return fmt::format("fbs experiment: {} simulated points, {} above an analytic bound, {} above the model-consistent bound\n", ran, above,
                     above_model) + s;
}

}  // namespace sanvp::fbs
