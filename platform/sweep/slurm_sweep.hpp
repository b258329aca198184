// A sweep stored in its output folder (sweep.plan.json: the points and each point's exact `sanvp
// run` command), so `sweep --resume` can skip the points already done and `sweep collect DIR` can
// merge later; and the Slurm backend, which runs the points as one Slurm job array
// (docs/sweep.md). A point is done when its exit code, recorded in point-NNN.rc ("EXIT_CODE
// MILLISECONDS") whichever backend ran it, is 0 (with a complete report), 2 or 3.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hw/base/error.hpp"
#include "platform/sweep/sweep_merge.hpp"

namespace sanvp {

struct StoredSweep {
  SweepOutput output;                        // out folder, scenario, vary and sets as given
  std::string cwd;                           // the folder the relative paths are relative to
  std::vector<SweepAxis> axes;
  std::vector<Point> points;
  std::vector<std::vector<std::string>> argv;  // each point's command; argv[0]: the sanvp binary
  std::vector<std::string> labels;           // for the progress lines
};

std::string plan_path(const std::string& out);
void write_plan(const StoredSweep& s);
// The sweep stored in `dir`; a UserError naming the file when it is missing or malformed.
StoredSweep read_plan(const std::string& dir);

struct PointResult {
  int exit_code = 0;
  double seconds = 0;
  // Success, a simulation failure or refused input (which leaves no report): rerunning the
  // point gives the same. Any other code (a crash, a killed task) is worth a retry.
  bool done() const { return exit_code == 0 || exit_code == kExitUserError || exit_code == kExitSimError; }
};
// Point i's recorded exit code; nothing when none is recorded, or for exit 0 when the report is
// not complete (parses, has a status).
std::optional<PointResult> point_result(const std::string& out, std::size_t i);
// Exit codes of every point for merge_sweep; -1 for a point without a recorded exit code.
std::vector<int> point_exit_codes(const StoredSweep& s);

struct SlurmOptions {
  std::string partition;  // empty: the cluster's default partition
  std::string scratch;    // shared folder for the binary copy, job script and Slurm logs
  int max_parallel = 0;   // array tasks running at once (sbatch --array=...%N); 0: no limit
  int retries = 2;        // resubmissions of points that ended without a result
  double poll_seconds = 1;
};

// Runs the points `todo` of `s` as one Slurm job array (one per 1000 points: Slurm's default
// MaxArraySize) and follows them to the end with the local backend's progress lines, resubmitting
// points that ended without a result (node failure, killed task) up to `retries` times. With
// submit_only it returns after the submission. Bad options or a refused submission: UserError.
void slurm_run(const StoredSweep& s, const std::vector<std::size_t>& todo, const SlurmOptions& o, bool submit_only);

}  // namespace sanvp
