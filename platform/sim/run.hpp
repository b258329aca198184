// Runs one simulation: builds the network, runs it with a progress watchdog, and writes the
// summary, report.json and (optionally) VCD. The built-in default scenario lives here too.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "platform/core/params.hpp"
#include "platform/sim/network.hpp"

namespace sanvp {

struct RunOptions {
  std::uint64_t seed = 1;
  std::string scenario = "default";  // name shown in reports
  std::string report = "report.json";
  std::string vcd;                   // empty: no waves
  std::string trace;                 // module patterns, empty = all
  Time trace_from = 0, trace_to = kNever;
  bool print_summary = true;
};

struct RunSpec {
  // Declares switches, nodes and links on the network (before build()).
  std::function<void(Network&)> topology;
  // Sets routes after build(); default: shortest paths.
  std::function<void(Network&)> routes;
  // Extra setup after routes (explicit injections, pauses); default: the configured traffic.
  std::function<void(Network&)> traffic;
  // Called after the run, before statistics (scoreboards in tests, firmware exit codes).
  std::function<void(Network&)> on_finish;
  nlohmann::json scenario_json;  // effective scenario description for the report
};

struct SimParams {
  static inline const ParamRegistrar params{{
      {"sim", "duration", ParamType::Time, "ns", "1ms", "traffic generation window: no packet is created after it"},
      {"sim", "drain", ParamType::Time, "ns", "1ms", "extra time allowed for packets in flight to arrive"},
      {"sim", "watchdog", ParamType::Time, "ns", "100us", "no flit moving this long with packets in flight = hung network"},
  }};
};

enum class RunStatus { Completed, NotDrained, Hung };

struct RunResult {
  RunStatus status = RunStatus::Completed;
  nlohmann::json report;
  int exit_code = 0;
};

// Default scenario: one switch.ports-port switch with a node on every port, uniform traffic.
RunSpec default_scenario(ParamValues& pv);
RunResult run_simulation(ParamValues& pv, const RunOptions& opt, const RunSpec& spec);

}  // namespace sanvp
