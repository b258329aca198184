#include "platform/tdma/experiment_run.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "platform/sweep/process_pool.hpp"

namespace sanvp::tdma {
namespace {

ChildJob job_of(const ExperimentOptions& o, const ExpPoint& p, const std::string& exe) {
  ChildJob j;
  j.argv = {exe, "tdma", "run", p.streams, p.net, "--cycles", std::to_string(p.cycles)};
  j.argv.insert(j.argv.end(), p.flags.begin(), p.flags.end());
  for (const auto& s : p.sets) j.argv.insert(j.argv.end(), {"--set", s});
  j.report = fmt::format("{}/points/{}.json", o.out, p.id);
  j.argv.insert(j.argv.end(), {"--seed", std::to_string(o.seed), "--report", j.report});
  j.log = fmt::format("{}/points/{}.log", o.out, p.id);
  j.label = fmt::format("{}: {} ({} cycles)", p.group, p.label, p.cycles);
  return j;
}

Time ps(const nlohmann::json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<Time>() : 0; }

// The totals and the per-stream extremes of the reserved (non-sync) streams.
void read_run(const nlohmann::json& t, ExpResult& r) {
  const auto& tot = t["totals"];
  r.packets = tot.value("packets", std::uint64_t{0});
  r.misses = tot.value("deadline_misses", std::uint64_t{0});
  r.stage_misses = tot.value("stage_misses", std::uint64_t{0});
  r.blocked_packets = tot.value("reserved_blocked_packets", std::uint64_t{0});
  r.blocked = ps(tot, "blocked_ps");
  r.early_wait = ps(tot, "early_wait_ps");
  r.best_sent = t["best_effort"].value("sent", std::uint64_t{0});
  r.best_delivered = t["best_effort"].value("delivered", std::uint64_t{0});
  r.has_collision = !t["first_collision"].is_null();
  r.t_a = ps(t, "t_a_ps");
  r.t_setup = r.t_a;
  r.slot = ps(t, "slot_ps");
  r.tick = static_cast<Time>(std::llround(t.value("tick_ps", 0.0)));
  for (const auto& s : t["streams_results"]) {
    if (s.value("sync", false) || !s.value("admitted", false) || s.value("delivered", 0) == 0) continue;
    r.latency_max = std::max(r.latency_max, ps(s, "latency_max_ps"));
    r.stream_latency_max[s.value("id", std::int64_t{-1})] = ps(s, "latency_max_ps");
    r.jitter_max = std::max(r.jitter_max, ps(s, "jitter_ps"));
    r.latency_mean_util = s.value("latency_mean_ps", 0.0);
    r.latency_min_util = ps(s, "latency_min_ps");
  }
  if (r.point.group == "utilization" && r.latency_mean_util > 0) {
    const double wire = static_cast<double>(r.point.payload) * static_cast<double>(r.cp);
    r.eta_measured = wire / r.latency_mean_util;
    r.tau_measured = static_cast<Time>(std::llround(std::max(0.0, r.latency_mean_util - wire)));
  }
}

// Each appendix point against its ideal-clock twin (the same id + "-ideal").
void compare_ideal(std::vector<ExpResult>& res) {
  std::map<std::string, const ExpResult*> by_id;
  for (const ExpResult& r : res) by_id[r.point.id] = &r;
  for (ExpResult& r : res) {
    const auto it = by_id.find(r.point.id + "-ideal");
    if (r.point.group != "appendix" || !r.ok || it == by_id.end() || !it->second->ok) continue;
    for (const auto& [id, lat] : r.stream_latency_max) {
      const auto ref = it->second->stream_latency_max.find(id);
      if (ref == it->second->stream_latency_max.end()) continue;
      const std::int64_t d = static_cast<std::int64_t>(lat) - static_cast<std::int64_t>(ref->second);
      if (r.excess_stream < 0 || d > r.excess) r.excess = d, r.excess_stream = id;
    }
  }
}

}  // namespace

std::vector<ExpResult> run_experiment(const ExperimentOptions& o, const std::vector<ExpPoint>& points) {
  const std::string exe = self_exe("tdma experiment");
  std::vector<ChildJob> jobs;
  std::vector<ExpResult> res;
  for (const ExpPoint& p : points) {
    jobs.push_back(job_of(o, p, exe));
    ExpResult r;
    r.point = p;
    r.report = jobs.back().report;
    const PointBounds b = point_bounds(p, o.seed);
    r.t_maxdrift = b.t_maxdrift;
    r.cp = b.cp;
    res.push_back(r);
  }
  make_output_folder(o.out + "/points", "--out");
  fmt::print(stderr, "tdma experiment: {} runs, {} job(s), seed {}, into {}/\n", jobs.size(), o.jobs, o.seed, o.out);
  const std::vector<ChildResult> ran = run_children(jobs, static_cast<int>(o.jobs), "tdma experiment");
  for (std::size_t i = 0; i < res.size(); ++i) {
    res[i].exit_code = ran[i].exit_code;
    res[i].seconds = ran[i].seconds;
    const nlohmann::json rep = read_json_file(res[i].report);
    if (!rep.is_object() || !rep.contains("results") || !rep["results"].contains("tdma_run")) continue;
    res[i].ok = ran[i].exit_code == 0;
    read_run(rep["results"]["tdma_run"], res[i]);
  }
  compare_ideal(res);
  return res;
}

int draw_plots(const ExperimentOptions& o) {
  ChildJob j{{"/usr/bin/python3", SANVP_TDMA_PLOTS_SCRIPT, o.out}, o.out + "/plots.log", "plots (scripts/tdma_plots.py)", {}};
  const int code = run_children({j}, 1, "tdma experiment").front().exit_code;
  if (code != 0) fmt::print(stderr, "warning: the plots failed (exit {}): see {}\n", code, j.log);
  else fmt::print("plots: {}/*.png\n", o.out);
  return code;
}

}  // namespace sanvp::tdma
