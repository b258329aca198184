// `sanvp fbs experiment [--out DIR] [--only GROUPS] [--rounds N] [--jobs N] [--quick]`: the paper's
// Tables 3, 4 and Figures 4-6, each point's printed value beside the analytic model (both GAP3
// readings) and the simulated skew (one `sanvp fbs run` child process per point); writes
// DIR/fbs_experiment.json, DIR/*.md and the PNG plots of scripts/fbs_plots.py.
#include <fmt/format.h>
#include <memory>

#include "hw/base/error.hpp"
#include "platform/fbs/experiment_report.hpp"
#include "platform/fbs/fbs_subcommand.hpp"

namespace sanvp::fbs {
namespace {

int experiment_command(const ExperimentOptions& o) {
  const std::vector<ExpPoint> points = experiment_points(o);
  const std::vector<ExpResult> results = run_experiment(o, points);
  write_experiment(o, results);
  fmt::print("{}", experiment_summary(results));
  fmt::print("results: {0}/fbs_experiment.json, {0}/fbs_experiment.md\n", o.out);
  int code = 0;
  for (const ExpResult& r : results)
    if (r.point.simulate && r.sim.worst < 0) code = kExitSimError;
  if (o.plots && draw_plots(o) != 0) code = kExitSimError;
  return code;
}

}  // namespace

Subcommand experiment_subcommand(CLI::App& fbs) {
  auto o = std::make_shared<ExperimentOptions>();
  auto* sub = fbs.add_subcommand("experiment", "the paper's Tables 3, 4 and Figures 4-6: printed, analytic and simulated skew side by side (tables, JSON, PNG)");
  sub->add_option("--out,-o", o->out, "output folder")->capture_default_str();
  sub->add_option("--only", o->only, "groups to run: table3,table4,fig4,fig5,fig6 (default all)")->delimiter(',');
  sub->add_option("--rounds", o->rounds, "synchronization rounds per simulated point (fbs.rounds)")->capture_default_str()->check(CLI::Range(1, 1000));
  sub->add_option("--jobs,-j", o->jobs, "simulations run at once")->capture_default_str()->check(CLI::Range(1, 64));
  sub->add_option("--tree-levels", o->tree_levels, "levels of the simulated 8-port trees (the paper's have 4: 392 NICs)")
      ->capture_default_str()->check(CLI::Range(3, 4));
  sub->add_flag("--quick", o->quick, "only the first and the last point of every series");
  sub->add_flag("!--no-plots", o->plots, "do not draw the PNG plots (scripts/fbs_plots.py)");
  add_seed_option(sub, o->seed, "seed of every simulated point")->capture_default_str();
  return {sub, [o] { return experiment_command(*o); }};
}

}  // namespace sanvp::fbs
