// Merging a sweep: every point's JSON report (point-NNN.json in the output folder) into
// sweep.csv (one row per point: the varied values, status, latency, throughput, utilization) and
// sweep.json (each point's set and results). Shared by every sweep backend, so the merged files
// depend only on the points' reports, never on where the points ran.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "platform/sweep/sweep_plan.hpp"

namespace sanvp {

using Point = std::vector<std::pair<std::string, std::string>>;

struct SweepOutput {
  std::string out;                         // output folder
  std::string file;                        // scenario file
  std::vector<std::string> vary, sets;     // as given on the command line
};

// The path of point i's file with extension ext ("json", "log") in folder out.
std::string sweep_point_file(const std::string& out, std::size_t i, const char* ext);

// Merges the points' reports into sweep.csv and sweep.json; returns the sweep's exit code (bad
// input in any point wins over a failed simulation).
int merge_sweep(const SweepOutput& a, const std::vector<SweepAxis>& axes, const std::vector<Point>& points, const std::vector<int>& exit_codes);

}  // namespace sanvp
