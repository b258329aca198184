// Child `sanvp` processes, for commands that run one simulation per point (a SystemC kernel runs
// once per process): the path of this executable, a pool that runs at most N children at a time
// with one progress line per finished child on stderr, and reading a child's JSON report.
// Used by `sanvp sweep` and `sanvp fbs experiment`.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sanvp {

// The running sanvp executable (/proc/self/exe); `who` names the command in the error.
std::string self_exe(const std::string& who);

struct ChildJob {
  std::vector<std::string> argv;  // argv[0]: the executable
  std::string log;                // the child's stdout and stderr
  std::string label;              // for the progress line
  std::string report;             // removed before the start, so a stale one is never read
  std::string rc;                 // if set: "EXIT_CODE MILLISECONDS" written when it ends (sweep --resume)
};

struct ChildResult {
  int exit_code = -1;  // 128 + signal when killed
  double seconds = 0;  // wall time
};

// Runs every job, at most `parallel` at a time, in job order; prints
// "[done/total] label: ok in 1.2s" (or "exit N (see LOG)") on stderr as each finishes.
// The progress line of one finished child (shared by the sweep backends).
void print_progress(std::size_t done, std::size_t total, const std::string& label, int exit_code, double seconds, const std::string& log);

std::vector<ChildResult> run_children(const std::vector<ChildJob>& jobs, int parallel, const std::string& who);

// Creates `dir` (and its parents); a UserError naming `option` when it cannot.
void make_output_folder(const std::string& dir, const std::string& option);

// A JSON file, or null when it is missing or unreadable.
nlohmann::json read_json_file(const std::string& path);

}  // namespace sanvp
