// `sanvp grim experiment`: the GRIM paper's measurements (§3): Table 1 (host-to-host latency of a
// 4-byte message, bandwidth of 1 MB messages in 48 KB packets, the half-power size) and Figure 3
// (injection overhead and gap for bursts of 1..1024 small messages, optimistic NI flow control
// against host credits, 16 nodes), the same under packet loss, and the firmware breakdown that
// explains the numbers. Every point is a child `sanvp` process (a SystemC kernel runs once per
// process): `sanvp grim --bench` for Table 1, `sanvp grim experiment --burst-point` for Figure 3.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sanvp::grim_host {

// The paper's values (grim-message-layer.txt §3, Table 1, Figure 3's text).
struct PaperValues {
  static constexpr double kLatencyUs = 13, kBandwidthMBps = 106, kHalfPowerBytes = 6 * 1024;
  static constexpr double kOverheadUs = 1, kGapUs = 21;
  static constexpr std::uint32_t kNiBuffers = 128, kNodes = 16, kCredits = 8;  // 128 / 16
};

struct ExperimentOptions {
  std::string out = "grim-experiment";
  bool quick = false;  // a small subset (CI)
  bool plots = true;
  int jobs = 2;
  std::uint64_t seed = 1;
};

// A `sanvp grim --bench` point: one message size in one configuration.
struct BenchPoint {
  std::string id, config;  // config: "paper" (48 KiB fragments), "default" (4 KiB), "fast-core" (1 GHz NIC core)
  std::uint32_t size = 0;
};

// A burst point of Figure 3.
struct BurstPoint {
  std::string id;
  std::uint32_t burst = 1, credits = 0;
  double loss = 0;
  int senders = 1;
};

struct ExperimentPlan {
  std::vector<BenchPoint> bench;
  std::vector<BurstPoint> bursts;
  int bisection_steps = 0;  // extra bench runs that narrow the half-power size (paper config)
};

ExperimentPlan experiment_plan(const ExperimentOptions& o);
// The command-line arguments of a configuration (after `sanvp grim --bench`).
std::vector<std::string> bench_config_args(const std::string& config);
std::string bench_config_text(const std::string& config);
// Burst points' fixed settings: 16 nodes, the firmware's largest pool (grim::kMaxPool), 4-byte messages.
std::uint32_t burst_pool();
inline constexpr std::uint32_t kBurstSize = 4;
inline constexpr int kBurstNodes = 16;
// The burst under loss whose loss counts are reported: 1e-3 loses about 16 of its data packets.
inline constexpr std::uint32_t kLossBurst = 16384;

struct BenchResult {
  BenchPoint point;
  int exit_code = -1;
  double latency_us = -1, pingpong_MBps = -1, streaming_MBps = -1, instr_n0 = -1, instr_n1 = -1;
  std::string report;
};

struct BurstResult {
  BurstPoint point;
  int exit_code = -1;
  nlohmann::json run;  // the child's report
  std::string report;
};

// Table 1 in one configuration: latency, bandwidth (1 MiB round trips), the half-power size.
struct Table1 {
  std::string config;
  double latency_us = -1, bandwidth_MBps = -1, streaming_MBps = -1, half_power_bytes = -1;
  std::uint32_t bracket_lo = 0, bracket_hi = 0;  // measured sizes around the half-power point
};

struct ExperimentResults {
  std::vector<BenchResult> bench;  // sorted by config, then size
  std::vector<BurstResult> bursts;
  std::vector<Table1> table1;
  int failures = 0;
};

ExperimentResults run_experiment(const ExperimentOptions& o, const ExperimentPlan& plan);
// The half-power size of one configuration's bandwidth curve (ping-pong MB/s against size):
// the size where the bandwidth first reaches half of the 1 MiB value, interpolated linearly
// between the two measured sizes around it.
Table1 table1_of(const std::vector<BenchResult>& bench, const std::string& config);
// Runs `/usr/bin/python3 scripts/grim_plots.py DIR`; its exit code (a warning names the log).
int draw_plots(const ExperimentOptions& o);

// What the experiment writes: DIR/results.json, DIR/table1.md, DIR/fig3.md, DIR/breakdown.md.
nlohmann::json experiment_json(const ExperimentOptions& o, const ExperimentResults& r);
std::string table1_markdown(const ExperimentResults& r);
std::string fig3_markdown(const ExperimentResults& r);
std::string breakdown_markdown(const ExperimentResults& r);
void write_experiment(const ExperimentOptions& o, const ExperimentResults& r);

}  // namespace sanvp::grim_host
