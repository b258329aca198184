// `sanvp fbs experiment`: the points of the paper's Tables 3, 4 and Figures 4-6, each with the
// parameters it runs at, the paper's printed value and the network it is simulated on, and the
// rule that moves fc.ks and fc.kg when a point changes link.cp or fc.bl (docs/fbs.md,
// "Experiments").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/fbs/skew_model.hpp"

namespace sanvp::fbs {

struct ExperimentOptions {
  std::string out = "fbs-experiment";
  std::vector<std::string> only;  // groups: table3, table4, fig4, fig5, fig6 (empty: all)
  int rounds = 5, jobs = 2;
  int tree_levels = 3;            // levels of the simulated 8-port trees (the paper's are 4)
  bool quick = false;             // first and last point of every series only
  bool plots = true;
  std::uint64_t seed = 1;
};

// A network: one k-port switch (levels 0) or a full tree of k-port switches, `levels` levels
// with the NICs at level 0 (`sanvp topo gen tree`).
struct ExpNetwork {
  int ports = 8, levels = 0;
  std::vector<std::string> args() const;  // "single ports=8" / "tree ports=8 fanout=7 root_fanout=8 levels=4"
  std::string name() const;               // "8-port switch" / "4-level tree of 8-port switches (392 NICs)"
  int nics() const;
  long long sync_slots() const;           // slots of one SSS/HSS round
};

struct ExpPoint {
  std::string group, series, label, id;  // id: file stem of the simulated point, unique
  ExpNetwork paper_net, sim_net;         // the paper's network, the simulated one (they may differ: say so)
  std::vector<std::string> sets;         // key=value for the model and the run
  Ps paper_skew = -1;                    // the paper's printed skew (ps), -1: none quoted
  std::int64_t paper_si = -1, paper_overhead = -1;  // Tables 3, 4: si and overhead in 1/100 %
  bool simulate = true;
  std::string note;                      // why a point is not simulated, or what the rule changed
};

// The flow-control thresholds a point runs with when it changes cp or bl (`rule` true), or the
// paper's fixed ks = 53, kg = 17 (`rule` false). The rule: ks keeps the paper's distance from the
// top of the buffer (bl - ks = 11 flits) unless the round trip at this cp needs more room
// (ks + ceil((2 ld + 2 fc)/cp) - 1 <= bl, the flow controller's overflow check); kg stays unless
// the link would starve ((kg + 1) cp >= 2 ld + 2 fc + sd). `why` says what moved.
struct Thresholds { std::int64_t ks, kg; std::string why; };
Thresholds thresholds(const SkewInputs& base, Ps cp, std::int64_t bl, bool rule);
// The flow controller's own check (FlowControlConfig::validate) for these inputs: empty when valid.
std::string threshold_violation(const SkewInputs& in);

const std::vector<std::string>& experiment_groups();  // table3, table4, fig4, fig5, fig6
std::vector<ExpPoint> experiment_points(const ExperimentOptions& o);

}  // namespace sanvp::fbs
