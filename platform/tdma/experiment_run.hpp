// `sanvp tdma experiment`: every point as a child `sanvp tdma run` (at most --jobs at once, a
// progress line per finished run), the numbers read back from its report (results.tdma_run) and
// the bounds derived for it: T_maxdrift (experiment_plan.hpp), T_setup and the latency bound.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "platform/tdma/experiment_plan.hpp"

namespace sanvp::tdma {

struct ExpResult {
  ExpPoint point;
  int exit_code = -1;
  double seconds = 0;
  std::string report;
  bool ok = false;                      // the run completed and its report has results.tdma_run
  // Derived from the point's parameters.
  Time t_maxdrift = 0;                  // sum of the two widest sync bounds
  Time t_a = 0;                         // header through the longest reserved route (the run's plan)
  Time t_setup = 0;                     // T_setup in this model: T_a (the DMA is set up ahead, by the lead)
  Time slot = 0, tick = 0, cp = 0;     // tdma.slot, the RTC tick, link.cp
  // Measured (totals over the reserved streams).
  std::uint64_t packets = 0, misses = 0, stage_misses = 0, blocked_packets = 0, best_sent = 0, best_delivered = 0;
  Time blocked = 0, early_wait = 0;
  Time latency_max = 0;                 // largest latency of any stream (release to last byte stored)
  Time jitter_max = 0;                  // largest (max - min latency) of any stream: the latency beyond its schedule
  double latency_mean_util = 0;         // utilization points: the stream's mean latency
  Time latency_min_util = 0;
  double eta_measured = 0;              // utilization points: M cp / mean latency
  Time tau_measured = 0;                // mean latency - M cp (Eq. 5.1's tau in this model)
  bool has_collision = false;
  std::map<std::int64_t, Time> stream_latency_max;  // per reserved stream
  // Appendix points: the largest (latency_max - the same stream's latency_max with ideal clocks)
  // over the streams, what the clocks and any blocking add (-1: no reference); and that stream.
  std::int64_t excess = -1, excess_stream = -1;
};

std::vector<ExpResult> run_experiment(const ExperimentOptions& o, const std::vector<ExpPoint>& points);
// `/usr/bin/python3 scripts/tdma_plots.py DIR`; its exit code (a warning names the log).
int draw_plots(const ExperimentOptions& o);

}  // namespace sanvp::tdma
