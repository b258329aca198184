// A simulated FBS run: every node of the topology is a host with a LANai-like NIC running the
// FBS firmware (builtin:fbs). Each NIC's oscillator gets its own error (fbs.drift spread evenly
// over the NICs in a seeded order, unless nN.osc.ppm says otherwise) and its slot 0 a seeded
// offset (fbs.initial_skew); its host loads its part of the schedule; the firmware synchronizes
// for fbs.rounds periods of fbs.interval slots. The report's results.fbs holds the skew measured
// by probes after every round and before the next, beside the analytic bounds. With --vcd every
// NIC's slot clock is the signal nN.fbs.slot (SlotTrace, skew_measure.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/fbs/fbs_loader.hpp"
#include "platform/fbs/schedule.hpp"
#include "platform/fbs/schedule_check.hpp"
#include "platform/fbs/skew_measure.hpp"
#include "platform/scenario/network_arg.hpp"
#include "platform/sim/run.hpp"
#include "platform/topo/routing.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::fbs {

struct RunInput {
  Topology topo;
  std::vector<int> nics;            // the NIC nodes (U)
  Schedule schedule;
  int levels = 0;                   // HSS: the spanning tree's levels m (Eq. 10)
  std::string routing = "up-down";  // how `routes` were made (for the report)
  RouteTable routes;                // the run's source routes (HSS: tree routes)
  bool explicit_routes = false;     // install `routes` (else the scenario's up*/down*)
  std::string firmware;             // image path; empty = builtin:fbs
};

// The run's input on `net`: the schedule of `kind` (sss, hss or auto), checked — a schedule that
// is not synchronizing is a UserError before the run — and the routes it was checked against
// (HSS: the spanning tree's when the network's own leave the tree).
RunInput make_run_input(const NetworkArg& net, const std::string& kind);

// What the run derived from the parameters, per NIC and overall (for the report and tests).
struct RunPlan {
  std::uint32_t slot_bytes = 0, guard = 0, packet_len = 0, period = 0, rounds = 0, sync_rounds = 0;
  std::uint32_t needed_guard = 0;    // the auto guard (fbs_analysis.hpp, needed_guard); fbs.guard may differ
  Convergence convergence;           // the schedule's worst convergence (schedule_check.hpp)
  Time slot = 0;                     // slot_bytes x cp
  double drift_ppm = 0;
  std::vector<std::uint32_t> nodes;  // NIC node ids
  std::vector<double> ppm;           // per NIC
  std::vector<std::int64_t> offset;  // per NIC: start offset in ticks
  std::vector<ClockOfNode> clocks;
  std::vector<NodePlan> plans;
};

// Reads the fbs.* parameters, assigns clocks and builds every NIC's plan (sets nN.osc.ppm and,
// unless given, nic.osc.freq = 1000 MHz in `pv`). Throws UserError for values that cannot run.
RunPlan plan_run(ParamValues& pv, std::uint64_t seed, const RunInput& in);

// Runs the plan and writes the report (results.fbs) through run_simulation.
RunResult run_fbs(ParamValues& pv, const RunOptions& opt, const RunInput& in);

}  // namespace sanvp::fbs
