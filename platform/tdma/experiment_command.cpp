// `sanvp tdma experiment`: the Appendix A runs (early sending x best-effort load), the margin sweep
// around the drift bound and the utilization vs packet size runs, one child `sanvp tdma run` per
// point; the analytic Eq. 4.4, Eq. 5.1 and 4x4-mesh numbers beside the thesis's; writes
// DIR/results.json, DIR/table.md and the PNG plots of scripts/tdma_plots.py.
#include "platform/tdma/experiment_command.hpp"

#include <fmt/format.h>
#include <memory>

#include "platform/sim/report.hpp"
#include "platform/tdma/experiment_report.hpp"

namespace sanvp::tdma {
namespace {

int experiment_command(const ExperimentOptions& o) {
  const std::vector<ExpResult> results = run_experiment(o, experiment_points(o));
  write_experiment(o, results);
  fmt::print("{}", experiment_summary(results));
  fmt::print("results: {0}/results.json, {0}/table.md\n", o.out);
  int code = 0;
  for (const ExpResult& r : results)
    if (!r.ok) code = kExitSimError;
  if (o.plots && o.only.empty() && draw_plots(o) != 0) code = kExitSimError;
  return code;
}

}  // namespace

SyncSubcommand experiment_subcommand(CLI::App& tdma) {
  auto o = std::make_shared<ExperimentOptions>();
  auto* sub = tdma.add_subcommand("experiment", "the thesis's measurements: misses, blocking, latency and jitter (early sending x best-effort "
                                                "load, a margin sweep), utilization vs packet size, Eq. 4.4 and the 4x4-mesh overheads (tables, JSON, PNG)");
  sub->add_option("--out,-o", o->out, "output folder")->capture_default_str();
  sub->add_option("--cycles", o->cycles, "TDMA cycles of each Appendix A run (the margin and utilization runs take a tenth, at least 3)")
      ->capture_default_str()->check(CLI::Range(std::int64_t{1}, std::int64_t{1000000}));
  sub->add_option("--jobs,-j", o->jobs, "runs at once")->capture_default_str()->check(CLI::Range(std::int64_t{1}, std::int64_t{64}));
  sub->add_option("--only", o->only, "run only these points or groups (ids as in DIR/points, e.g. appendix-early-nobe; groups appendix, "
                                   "appendix-ideal, margin, utilization); the plots need every group")->delimiter(',');
  sub->add_flag("--quick", o->quick, "at most 10 cycles, two margins, two packet sizes");
  sub->add_flag("!--no-plots", o->plots, "do not draw the PNG plots (scripts/tdma_plots.py)");
  add_seed_option(sub, o->seed, "seed of every run")->capture_default_str();
  return {sub, [o] { return experiment_command(*o); }};
}

}  // namespace sanvp::tdma
