#include "platform/fbs/experiment_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "hw/base/params.hpp"
#include "platform/sweep/process_pool.hpp"

namespace sanvp::fbs {
namespace {

SkewInputs inputs_of(const ExpPoint& p) {
  ParamValues pv;
  apply_sets(pv, p.sets);
  return SkewInputs::from_params(pv);
}

// Points with the same model inputs on the same simulated network share one run.
std::string run_key(const SkewInputs& in, const ExpNetwork& net) {
  return fmt::format("{}/{} ld={} cp={} sd={} rd={} fc={} bl={} ks={} kg={} slot={} drift={}", net.ports, net.levels, in.ld, in.cp, in.sd,
                     in.rd, in.fc, in.bl, in.ks, in.kg, in.slot_bytes, in.drift_ppm);
}

ChildJob job_of(const ExperimentOptions& o, const ExpPoint& p, const std::string& exe) {
  ChildJob j;
  j.argv = {exe, "fbs", "run"};
  for (const auto& a : p.sim_net.args()) j.argv.push_back(a);
  for (const auto& s : p.sets) j.argv.insert(j.argv.end(), {"--set", s});
  j.argv.insert(j.argv.end(), {"--set", fmt::format("fbs.rounds={}", o.rounds), "--seed", std::to_string(o.seed)});
  j.report = fmt::format("{}/points/{}.json", o.out, p.id);
  j.argv.insert(j.argv.end(), {"--report", j.report});
  j.log = fmt::format("{}/points/{}.log", o.out, p.id);
  j.label = fmt::format("{} {}{} on {}", p.group, p.series.empty() ? "" : p.series + ", ", p.label, p.sim_net.name());
  return j;
}

Ps stat(const nlohmann::json& s, const char* key) {
  return s.is_object() && s.value("count", 0) > 0 && s.contains(key) ? std::llround(s[key].get<double>()) : -1;
}

// The measured skews and the run's own analysis from its report.
void read_run(const nlohmann::json& rep, ExpSimulated& s) {
  if (!rep.contains("results") || !rep["results"].contains("fbs")) return;
  const auto& f = rep["results"]["fbs"];
  s.steady_max = stat(f["skew_after_round"], "max_ps");
  s.steady_mean = stat(f["skew_after_round"], "mean_ps");
  s.first = stat(f["skew_after_first_round"], "max_ps");
  s.worst = std::max(s.steady_max, s.first);
  const auto& a = f["analysis"];
  s.dead_zone = a.value("dead_zone_ps", Ps{-1});
  s.model_bound = a.value("model_bound_ps", Ps{-1});
  s.guard = rep["scenario"]["fbs"].value("guard_bytes", std::int64_t{-1});
  for (const auto& n : f["nics"]) s.refused += n.value("refused_sends", std::int64_t{0});
}

// The verdict against the bounds of the simulated network (and the model's own, where derived).
void judge(ExpResult& r) {
  const ExpSimulated& s = r.sim;
  if (!r.point.simulate) return void(r.verdict = "not simulated");
  if (s.worst < 0) return void(r.verdict = fmt::format("run failed (exit {}, see {})", s.exit_code, s.report));
  const Ps lo = std::min(r.sim_net.bl_ks, r.sim_net.bl_kg), hi = std::max(r.sim_net.bl_ks, r.sim_net.bl_kg);
  const bool has_model = s.model_bound > 0;
  r.within_model = has_model ? s.worst <= s.model_bound : s.worst <= hi;
  if (s.worst <= lo) r.verdict = "within both readings";
  else if (s.worst <= hi) r.verdict = fmt::format("above {} only", r.sim_net.bl_kg < r.sim_net.bl_ks ? "bl-kg" : "bl-ks");
  else r.verdict = "ABOVE both readings";
  if (s.worst > lo && has_model) r.verdict += r.within_model ? "; within the model bound" : "; ABOVE the model bound";
  if (s.worst > hi && !has_model) r.verdict += "; no model bound derived";
  // A refused send drops a NIC's sync packet: the round misses precedences, the skew is not FBS's.
  if (s.refused) r.verdict += fmt::format("; {} sync sends refused", s.refused), r.within_model = false;
}

}  // namespace

ExpAnalytic analytic(const SkewInputs& in, const ExpNetwork& net, bool truncate) {
  ExpAnalytic a;
  auto bound = [&](Gap3Reading g) { return net.levels == 0 ? sss_skew(in, g) : hss_skew(in, net.levels, g); };
  a.bl_ks = bound(Gap3Reading::BlMinusKs);
  a.bl_kg = bound(Gap3Reading::Printed);
  a.si_bl_ks = sync_interval(in, a.bl_ks);
  a.si_bl_kg = sync_interval(in, a.bl_kg);
  a.ovh_bl_ks = overhead_hundredths(net.sync_slots(), a.si_bl_ks, !truncate);
  a.ovh_bl_kg = overhead_hundredths(net.sync_slots(), a.si_bl_kg, !truncate);
  return a;
}

std::vector<ExpResult> run_experiment(const ExperimentOptions& o, const std::vector<ExpPoint>& points) {
  std::vector<ExpResult> res;
  std::vector<ChildJob> jobs;
  std::map<std::string, std::size_t> job_of_key;
  std::vector<std::size_t> job_of_point(points.size(), SIZE_MAX);
  const std::string exe = self_exe("fbs experiment");
  for (std::size_t i = 0; i < points.size(); ++i) {
    ExpResult r{points[i], inputs_of(points[i]), {}, {}, {}, {}, true};
    const bool truncate = r.point.group == "table4";
    r.paper_net = analytic(r.in, r.point.paper_net, truncate);
    r.sim_net = analytic(r.in, r.point.sim_net, truncate);
    if (r.point.simulate) {
      const auto [it, fresh] = job_of_key.emplace(run_key(r.in, r.point.sim_net), jobs.size());
      if (fresh) jobs.push_back(job_of(o, r.point, exe));
      job_of_point[i] = it->second;
    }
    res.push_back(r);
  }
  make_output_folder(o.out + "/points", "--out");
  fmt::print(stderr, "fbs experiment: {} points, {} simulations, {} job(s), {} rounds each, seed {}, into {}/\n", points.size(), jobs.size(),
             o.jobs, o.rounds, o.seed, o.out);
  const std::vector<ChildResult> ran = run_children(jobs, o.jobs, "fbs experiment");
  for (std::size_t i = 0; i < res.size(); ++i) {
    if (job_of_point[i] == SIZE_MAX) { judge(res[i]); continue; }
    const ChildJob& j = jobs[job_of_point[i]];
    ExpSimulated& s = res[i].sim;
    s.ran = true;
    s.exit_code = ran[job_of_point[i]].exit_code;
    s.seconds = ran[job_of_point[i]].seconds;
    s.report = j.report;
    if (j.report != fmt::format("{}/points/{}.json", o.out, res[i].point.id)) s.shared_with = j.report;
    read_run(read_json_file(j.report), s);
    if (s.worst >= 0) {
      s.si = sync_interval(res[i].in, s.worst);
      s.overhead = overhead_hundredths(res[i].point.paper_net.sync_slots(), s.si, res[i].point.group != "table4");
    }
    judge(res[i]);
  }
  return res;
}

int draw_plots(const ExperimentOptions& o) {
  ChildJob j{{"/usr/bin/python3", SANVP_FBS_PLOTS_SCRIPT, o.out}, o.out + "/plots.log", "plots (scripts/fbs_plots.py)", {}};
  const int code = run_children({j}, 1, "fbs experiment").front().exit_code;
  if (code != 0) fmt::print(stderr, "warning: the plots failed (exit {}): see {}\n", code, j.log);
  else fmt::print("plots: {}/*.png\n", o.out);
  return code;
}

}  // namespace sanvp::fbs
