// `sanvp tdma experiment` (issue 16 part 4): the points it runs (each a child `sanvp tdma run`) and
// the thesis's analytic numbers computed from their parameters (docs/tdma.md, "Experiments"):
// the slot length of Eq. 4.4, the channel utilization of Eq. 5.1 and the 4x4-mesh sync overheads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"

namespace sanvp::tdma {

struct ExperimentOptions {
  std::string out = "tdma-experiment";
  std::int64_t cycles = 100;  // TDMA cycles of the Appendix A points (the others derive theirs from it)
  std::int64_t jobs = 2;
  bool quick = false;         // 10 cycles, fewer margins and packet sizes
  bool plots = true;
  std::uint64_t seed = 1;
  std::vector<std::string> only;  // run only these points (ids or groups); empty: all
};

// One child run: `sanvp tdma run STREAMS NET --cycles N [flags] [--set k=v]...`.
struct ExpPoint {
  std::string group;          // appendix (early x best effort), margin (sweep), utilization (packet sizes)
  std::string id, label;      // id: file stem of its report, unique
  std::string streams, net;   // stream file, network argument
  std::vector<std::string> sets, flags;
  std::int64_t cycles = 0;
  bool early = true;
  double best_effort = 0;
  Time margin = 0;            // the run's T_margin
  std::int64_t payload = 0;   // bytes per slot
};

// The thesis's inputs (tdma-realtime-myrinet.txt 4.3, 5.2, 5.3), named; every number the
// experiment quotes beside them is computed from these, never typed in.
struct ThesisInputs {
  Time t_setup = 3 * kUs;        // measured setup time of a zero-copy message (Eq. 4.4)
  Time t_maxdrift = 1 * kUs;     // largest clock difference, sync every 5 ms (5.2)
  std::int64_t message = 1300;   // bytes (Eq. 4.4)
  Time cp = 6250;                // ps per byte: c = 160 bytes/us
  Time sync_msg = 5 * kUs;       // one clock-sync message (4.3)
  std::int64_t submasters = 15, slaves = 15;  // 4x4 mesh: 16 groups of 16 nodes
  Time mesh_margin = 30 * kUs;   // added to the separated sync phase
  Time sync_period = 5000 * kUs;
  Time mesh_slot = 12500 * kNs;  // the slot the thesis uses for the scheduled-sync overhead
  double paper_slot_us = 12.125, paper_latency_us = 4, paper_ovh_separate = 3.6, paper_ovh_scheduled = 7.5;
  std::int64_t paper_90pct_bytes = 3400;  // "throughput reaches 90 % of its maximum at 3400 bytes" (Fig. 5.2)
};

// Eq. 4.4: T_setup + T_maxdrift + M / c.
Time slot_eq44(Time t_setup, Time t_maxdrift, std::int64_t bytes, Time cp);
// Eq. 5.1: eta = 1 / (c tau / M + 1), tau the time of a zero-byte packet.
double utilization_eq51(Time tau, std::int64_t bytes, Time cp);
// The 4x4 mesh: separated sync phase (sub-masters, then the groups in parallel, plus a margin) and
// sync slots scheduled among the traffic, each as a fraction of the sync period.
struct MeshOverheads { Time separate = 0, scheduled = 0; double separate_pct = 0, scheduled_pct = 0, scheduled_eq44_pct = 0; };
MeshOverheads mesh_overheads(const ThesisInputs& in, Time eq44_slot);

// T_maxdrift of a point: the largest difference between two clocks the sync bound allows, the
// sum of the two widest slave bounds (resolution + transmission-time error + drift x period) of
// plan_sync for the point's parameters; and the link's byte time (link.cp, ps per byte).
struct PointBounds { Time t_maxdrift = 0, cp = 0; };
PointBounds point_bounds(const ExpPoint& p, std::uint64_t seed);

std::vector<ExpPoint> experiment_points(const ExperimentOptions& o);

}  // namespace sanvp::tdma
