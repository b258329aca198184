// Clint experiments of the paper's section 4: latency against load for the bulk architectures
// B1-B4 and the quick architectures Q1-Q2, 16 hosts, 10^7 cycles of 4 ns. Every point of a
// sweep is an independent channel module; all of them elaborate together and run in one
// SystemC kernel (which cannot be restarted), so a whole sweep is one process.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "platform/clint/experiment_params.hpp"

namespace sanvp::clint {


struct ExperimentPoint {
  std::string arch;  // B1, B2, B3, B4, Q1, Q2
  double load = 0.5;
  bool bursty = false;
};

// hosts, cycle, cycles, warmup: experiment.params.yaml.
struct ExperimentSetup : ExperimentParams {
  std::uint64_t seed = 1;
  std::string vcd;  // waves of the scheduled bulk channel(s)
};

// Reads clint.hosts/cycle/cycles/warmup from `pv` (flags already folded into it).
ExperimentSetup experiment_setup(ParamValues& pv, std::uint64_t seed);
bool known_arch(const std::string& arch);

// Runs every point in one simulation; returns one JSON object per point (arch, load, bursty,
// mean/max latency in us, accepted throughput, saturated flag, all counters). The JSON holds no
// wall-clock figure (same inputs, byte-identical report); the wall time goes to `wall_s`.
nlohmann::json run_experiment(ParamValues& pv, const ExperimentSetup& setup, const std::vector<ExperimentPoint>& points,
                              double* wall_s = nullptr);

// The printed table of run_experiment's points (a header line, one row per point).
std::string experiment_table(const ExperimentSetup& setup, const nlohmann::json& res);
// Points that completed no packet after the warm-up (no latency to show).
std::size_t unmeasured_points(const nlohmann::json& res);

}  // namespace sanvp::clint
