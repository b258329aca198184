// `sanvp fbs experiment`: the analytic values of every point (both GAP3 readings, on the paper's
// network and on the simulated one), the simulations as child `sanvp fbs run` processes (at most
// --jobs at a time; points with the same parameters and network share one run) and each point's
// verdict against the bounds.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/fbs/experiment_plan.hpp"

namespace sanvp::fbs {

// Eq. 8 (single switch) or Eq. 10 (tree), Eq. 11 and Eq. 12 in both readings on one network.
struct ExpAnalytic {
  Ps bl_ks = 0, bl_kg = 0;                      // bounds
  std::int64_t si_bl_ks = 0, si_bl_kg = 0;      // Eq. 11, slots
  std::int64_t ovh_bl_ks = -1, ovh_bl_kg = -1;  // Eq. 12, 1/100 % (Table 4 truncates, else rounded)
};

struct ExpSimulated {
  bool ran = false;
  int exit_code = -1;
  double seconds = 0;
  std::string report, shared_with;  // the run's report; the point whose run this one shares
  Ps worst = -1, steady_max = -1, steady_mean = -1, first = -1;  // skew after a round, ps
  Ps dead_zone = -1, model_bound = -1;                          // from the run's analysis (SSS)
  std::int64_t guard = -1, si = -1, overhead = -1;              // Eq. 11/12 from the measured worst
  std::int64_t refused = 0;  // timed sync sends the NICs' send engines refused (start already past)
};

struct ExpResult {
  ExpPoint point;
  SkewInputs in;
  ExpAnalytic paper_net, sim_net;
  ExpSimulated sim;
  std::string verdict;  // "within both readings", "above bl-kg only", "above both, within the model bound", ...
  bool within_model = true;  // the simulated skew is within the model-consistent bound (or every analytic one)
};

ExpAnalytic analytic(const SkewInputs& in, const ExpNetwork& net, bool truncate);
std::vector<ExpResult> run_experiment(const ExperimentOptions& o, const std::vector<ExpPoint>& points);
// Runs `/usr/bin/python3 scripts/fbs_plots.py DIR` (the source tree's script) as a child process;
// its exit code (a warning names the log when it fails).
int draw_plots(const ExperimentOptions& o);

}  // namespace sanvp::fbs
