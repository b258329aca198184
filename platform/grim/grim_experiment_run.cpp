// `sanvp grim experiment`: every point as a child process (at most --jobs at a time), then the
// half-power size of the paper configuration narrowed by bisection (one child per step).
#include <algorithm>
#include <fmt/format.h>

#include "platform/grim/grim_experiment.hpp"
#include "platform/sweep/process_pool.hpp"

namespace sanvp::grim_host {
namespace {

ChildJob bench_job(const ExperimentOptions& o, const BenchPoint& p, const std::string& exe) {
  ChildJob j;
  j.argv = {exe, "grim", "--bench", "--bench-sizes", std::to_string(p.size), "--seed", std::to_string(o.seed)};
  for (const auto& a : bench_config_args(p.config)) j.argv.push_back(a);
  j.report = fmt::format("{}/points/{}.json", o.out, p.id);
  j.log = fmt::format("{}/points/{}.log", o.out, p.id);
  j.argv.insert(j.argv.end(), {"--report", j.report});
  j.label = fmt::format("latency/bandwidth {} B, {}", p.size, p.config);
  return j;
}

ChildJob burst_job(const ExperimentOptions& o, const BurstPoint& p, const std::string& exe) {
  ChildJob j;
  j.argv = {exe, "grim", "experiment", "--burst-point", "--burst", std::to_string(p.burst), "--host-credits", std::to_string(p.credits),
            "--packet-loss", fmt::format("{:g}", p.loss), "--senders", std::to_string(p.senders), "--seed", std::to_string(o.seed)};
  j.report = fmt::format("{}/points/{}.json", o.out, p.id);
  j.log = fmt::format("{}/points/{}.log", o.out, p.id);
  j.argv.insert(j.argv.end(), {"--report", j.report});
  j.label = fmt::format("burst of {}, {}, loss {:g}, {} sender(s)", p.burst, p.credits ? "host credits" : "optimistic", p.loss, p.senders);
  return j;
}

BenchResult read_bench(const BenchPoint& p, const ChildJob& j, const ChildResult& c) {
  BenchResult b;
  b.point = p;
  b.exit_code = c.exit_code;
  b.report = j.report;
  const nlohmann::json rep = read_json_file(j.report);
  if (c.exit_code != 0 || !rep.contains("table") || rep["table"].empty()) return b;
  const auto& row = rep["table"][0];
  b.latency_us = row.value("latency_us", -1.0);
  b.pingpong_MBps = row.value("pingpong_MBps", -1.0);
  b.streaming_MBps = row.value("streaming_MBps", -1.0);
  b.instr_n0 = row.value("n0_instructions_per_packet", -1.0);
  b.instr_n1 = row.value("n1_instructions_per_packet", -1.0);
  return b;
}

std::vector<BenchResult> run_bench(const ExperimentOptions& o, const std::vector<BenchPoint>& pts, const std::string& exe, const std::string& who) {
  std::vector<ChildJob> jobs;
  for (const auto& p : pts) jobs.push_back(bench_job(o, p, exe));
  const std::vector<ChildResult> ran = run_children(jobs, o.jobs, who);
  std::vector<BenchResult> out;
  for (std::size_t i = 0; i < pts.size(); ++i) out.push_back(read_bench(pts[i], jobs[i], ran[i]));
  return out;
}

// Narrows the paper configuration's half-power bracket: one bench run at the bracket's middle
// per step (sizes rounded to 256 B).
void bisect(const ExperimentOptions& o, int steps, const std::string& exe, ExperimentResults& r) {
  for (int s = 0; s < steps; ++s) {
    const Table1 t = table1_of(r.bench, "paper");
    if (t.bracket_lo == 0 || t.bracket_hi - t.bracket_lo <= 512) return;
    const std::uint32_t mid = (t.bracket_lo + t.bracket_hi) / 2 / 256 * 256;
    const BenchPoint p{fmt::format("bench_paper_{}_bisect", mid), "paper", mid};
    r.bench.push_back(run_bench(o, {p}, exe, "grim experiment (half-power bisection)").front());
    std::stable_sort(r.bench.begin(), r.bench.end(), [](const BenchResult& a, const BenchResult& b) {
      return a.point.config != b.point.config ? a.point.config < b.point.config : a.point.size < b.point.size;
    });
  }
}

}  // namespace

Table1 table1_of(const std::vector<BenchResult>& bench, const std::string& config) {
  Table1 t;
  t.config = config;
  std::vector<const BenchResult*> rows;
  for (const auto& b : bench)
    if (b.point.config == config && b.pingpong_MBps > 0) rows.push_back(&b);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->point.size < b->point.size; });
  for (const auto* b : rows) {
    if (b->point.size == 4) t.latency_us = b->latency_us;
    if (b->point.size == (1u << 20)) t.bandwidth_MBps = b->pingpong_MBps, t.streaming_MBps = b->streaming_MBps;
  }
  if (t.bandwidth_MBps <= 0) return t;
  const double half = t.bandwidth_MBps / 2;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const BenchResult &a = *rows[i - 1], &b = *rows[i];
    if (a.pingpong_MBps < half && b.pingpong_MBps >= half) {
      t.bracket_lo = a.point.size, t.bracket_hi = b.point.size;
      const double f = (half - a.pingpong_MBps) / (b.pingpong_MBps - a.pingpong_MBps);
      t.half_power_bytes = a.point.size + f * (b.point.size - a.point.size);
      break;
    }
  }
  return t;
}

ExperimentResults run_experiment(const ExperimentOptions& o, const ExperimentPlan& plan) {
  const std::string exe = self_exe("grim experiment");
  make_output_folder(o.out + "/points", "--out");
  fmt::print(stderr, "grim experiment: {} latency/bandwidth runs (+ up to {} bisection steps), {} burst runs, {} job(s), seed {}, into {}/\n",
             plan.bench.size(), plan.bisection_steps, plan.bursts.size(), o.jobs, o.seed, o.out);
  ExperimentResults r;
  std::vector<ChildJob> jobs;
  for (const auto& p : plan.bursts) jobs.push_back(burst_job(o, p, exe));
  for (const auto& p : plan.bench) jobs.push_back(bench_job(o, p, exe));
  const std::vector<ChildResult> ran = run_children(jobs, o.jobs, "grim experiment");
  for (std::size_t i = 0; i < plan.bursts.size(); ++i)
    r.bursts.push_back({plan.bursts[i], ran[i].exit_code, read_json_file(jobs[i].report), jobs[i].report});
  for (std::size_t i = 0; i < plan.bench.size(); ++i) {
    const std::size_t k = plan.bursts.size() + i;
    r.bench.push_back(read_bench(plan.bench[i], jobs[k], ran[k]));
  }
  bisect(o, plan.bisection_steps, exe, r);
  for (const auto& b : r.bench) r.failures += b.exit_code != 0;
  for (const auto& b : r.bursts) r.failures += b.exit_code != 0;
  for (const char* c : {"paper", "frag2k", "default"}) r.table1.push_back(table1_of(r.bench, c));
  return r;
}

int draw_plots(const ExperimentOptions& o) {
  ChildJob j{{"/usr/bin/python3", SANVP_GRIM_PLOTS_SCRIPT, o.out}, o.out + "/plots.log", "plots (scripts/grim_plots.py)", {}};
  const int code = run_children({j}, 1, "grim experiment").front().exit_code;
  if (code != 0) fmt::print(stderr, "warning: the plots failed (exit {}): see {}\n", code, j.log);
  else fmt::print("plots: {}/*.png\n", o.out);
  return code;
}

}  // namespace sanvp::grim_host
