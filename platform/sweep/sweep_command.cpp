// `sanvp sweep FILE --vary key=start:stop:step ... --jobs N`: runs every point of the sweep as an
// independent `sanvp run` process (a SystemC kernel runs once per process), at most N at a time
// on this machine or as one Slurm job array (--backend slurm), shows progress, and merges the
// points' reports into sweep.csv and sweep.json. `sanvp sweep collect DIR` merges a sweep
// submitted with --submit-only. docs/sweep.md.
#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <memory>

#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "platform/sim/report.hpp"
#include "platform/sweep/process_pool.hpp"
#include "platform/sweep/slurm_sweep.hpp"
#include "platform/sweep/sweep_merge.hpp"
#include "platform/sweep/sweep_plan.hpp"
#include "platform/scenario/scenario.hpp"

namespace sanvp {
namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string file, out, backend = "local", collect_dir;
  std::vector<std::string> vary, sets;
  int jobs = 2, seeds = 0;
  std::uint64_t seed = 0;
  bool seed_given = false, resume = false, submit_only = false;
  SlurmOptions slurm;
};

// "seed" as a varied key is the run's --seed (--seeds N), not a parameter.
constexpr const char* kSeedKey = "seed";

// Checks the scenario with the first and last points before starting processes, so a mistake is
// one message instead of N failed runs; the output folder defaults to sweep-<scenario name>.
// Returns the scenario's seed (1 when it has none), the base of --seeds.
std::uint64_t check_points(SweepArgs& a, const std::vector<Point>& points) {
  std::uint64_t seed = 1;
  for (const auto* p : {&points.front(), &points.back()}) {
    std::vector<std::string> sets = a.sets;
    for (const auto& [k, v] : *p) if (k != kSeedKey) sets.push_back(k + "=" + v);
    ParamValues pv;
    Scenario s = load_scenario(a.file, sets, pv);
    scenario_run_spec(s);
    if (a.out.empty()) a.out = "sweep-" + s.name;
    if (s.seed) seed = *s.seed;
  }
  return seed;
}

std::string point_label(const Point& p) {
  std::string s;
  for (const auto& [k, v] : p) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

// --seeds N: the seed axis, innermost, base seed (--seed or the scenario's) + 0..N-1.
void add_seed_axis(const SweepArgs& a, std::vector<SweepAxis>& axes, std::uint64_t scenario_seed) {
  if (a.seeds == 0) return;
  for (const auto& ax : axes)
    if (ax.key == kSeedKey) throw UserError("--seeds: 'seed' is also given with --vary; use one of them");
  SweepAxis ax{kSeedKey, {}};
  const std::uint64_t base = a.seed_given ? a.seed : scenario_seed;
  for (int k = 0; k < a.seeds; ++k) ax.values.push_back(std::to_string(base + static_cast<std::uint64_t>(k)));
  axes.push_back(std::move(ax));
}

// Every point's `sanvp run` command, the same for every backend.
StoredSweep plan_sweep(const SweepArgs& a, const std::vector<SweepAxis>& axes, const std::vector<Point>& points) {
  StoredSweep s{{a.out, a.file, a.vary, a.sets}, fs::current_path().string(), axes, points, {}, {}};
  const std::string exe = self_exe("sweep");
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::vector<std::string> argv{exe, "run", a.file, "--report", sweep_point_file(a.out, i, "json")};
    for (const auto& v : a.sets) { argv.push_back("--set"); argv.push_back(v); }
    bool seeded = false;
    for (const auto& [k, v] : points[i]) {
      seeded = seeded || k == kSeedKey;
      argv.push_back(k == kSeedKey ? "--seed" : "--set");
      argv.push_back(k == kSeedKey ? v : k + "=" + v);
    }
    if (a.seed_given && !seeded) { argv.push_back("--seed"); argv.push_back(std::to_string(a.seed)); }
    s.argv.push_back(std::move(argv));
    s.labels.push_back(fmt::format("point {} ({})", i, point_label(points[i])));
  }
  return s;
}

// The points to run: all, or with --resume those without a result. A folder holding another
// sweep is refused rather than mixed.
std::vector<std::size_t> points_to_run(const SweepArgs& a, const StoredSweep& s) {
  std::vector<std::size_t> todo;
  if (a.resume && fs::exists(plan_path(a.out))) {
    const StoredSweep old = read_plan(a.out);
    if (old.points != s.points || old.output.file != s.output.file || old.output.sets != s.output.sets)
      throw UserError(fmt::format("--resume: {} holds another sweep (other scenario, --set or points)", plan_path(a.out)));
  }
  for (std::size_t i = 0; i < s.points.size(); ++i)
    if (!a.resume || !point_result(a.out, i).value_or(PointResult{-1, 0}).done()) todo.push_back(i);
  return todo;
}

void run_local(const StoredSweep& s, const std::vector<std::size_t>& todo, int jobs) {
  std::vector<ChildJob> children;
  for (std::size_t i : todo)
    children.push_back({s.argv[i], sweep_point_file(s.output.out, i, "log"), s.labels[i], sweep_point_file(s.output.out, i, "json"),
                        sweep_point_file(s.output.out, i, "rc")});
  run_children(children, jobs, "sweep");
}

// Merges every point's report and prints the summary; the sweep's exit code.
int merge_and_report(const StoredSweep& s) {
  const std::vector<int> codes = point_exit_codes(s);
  const int worst = merge_sweep(s.output, s.axes, s.points, codes);
  const auto missing = std::count(codes.begin(), codes.end(), -1), ok = std::count(codes.begin(), codes.end(), 0);
  const auto failed = static_cast<std::ptrdiff_t>(codes.size()) - ok - missing;
  fmt::print("sweep: {} points, {} ok{}{}; results: {}/sweep.csv and {}/sweep.json\n", s.points.size(), ok,
             failed ? fmt::format(", {} failed (exit codes in sweep.csv, errors in the point logs)", failed) : "",
             missing ? fmt::format(", {} without a result", missing) : "", s.output.out, s.output.out);
  fmt::print("plot:  /usr/bin/python3 scripts/plot_sweep.py {}/sweep.csv\n", s.output.out);
  return worst;
}

void check_backend_options(const SweepArgs& a, const CLI::App* cmd) {
  if (a.backend == "slurm") {
    if (a.slurm.partition.find_first_of(" \t\n'\"\\;$`") != std::string::npos)
      throw UserError(fmt::format("--partition '{}': not a Slurm partition name", a.slurm.partition));
    return;
  }
  for (const char* o : {"--partition", "--max-parallel", "--scratch", "--retries", "--submit-only"})
    if (cmd->count(o) > 0) throw UserError(fmt::format("{} needs --backend slurm", o));
}

int run_sweep(SweepArgs& a, const CLI::App* cmd) {
  if (a.file.empty() || a.vary.empty()) throw UserError("sweep: a scenario file and at least one --vary are required");
  check_backend_options(a, cmd);
  std::vector<SweepAxis> axes;
  for (const auto& v : a.vary) {
    axes.push_back(parse_vary(v));
    // A key varied twice would give two CSV columns while each run takes only the last value.
    for (std::size_t i = 0; i + 1 < axes.size(); ++i)
      if (axes[i].key == axes.back().key)
        throw UserError(fmt::format("--vary: {} is varied twice ('{}' and '{}'); give its values once", axes.back().key, a.vary[i], v));
  }
  const std::uint64_t scenario_seed = check_points(a, sweep_points(axes));
  add_seed_axis(a, axes, scenario_seed);
  const auto points = sweep_points(axes);
  make_output_folder(a.out, "--out");
  Report().output(a.out + "/sweep.csv", "--out");
  const StoredSweep s = plan_sweep(a, axes, points);
  const std::vector<std::size_t> todo = points_to_run(a, s);
  write_plan(s);
  if (a.slurm.scratch.empty()) a.slurm.scratch = a.out + "/slurm";
  fmt::print(stderr, "sweep: {} points of {} ({} to run) with {} into {}/\n", points.size(), a.file, todo.size(),
             a.backend == "slurm" ? "Slurm" : fmt::format("{} job(s)", a.jobs), a.out);
  if (a.backend == "slurm") {
    slurm_run(s, todo, a.slurm, a.submit_only);
    if (a.submit_only) {
      fmt::print("sweep: submitted; merge with: sanvp sweep collect {}\n", a.out);
      return 0;
    }
  } else {
    run_local(s, todo, a.jobs);
  }
  return merge_and_report(s);
}

// `sweep collect DIR`: merges what the points have written so far, from the folder's plan.
int collect_sweep(const std::string& dir) {
  StoredSweep s = read_plan(dir);
  std::error_code ec;
  // The plan's paths are relative to the folder the sweep was started from; merged from there
  // the files are byte-identical to a sweep that ran to the end.
  if (fs::is_directory(s.cwd, ec) && fs::equivalent(fs::path(s.cwd) / s.output.out, dir, ec)) fs::current_path(s.cwd);
  else s.output.out = dir;
  return merge_and_report(s);
}

const CommandRegistrar reg_sweep{"sweep", [](CLI::App& app) -> CommandRun {
  auto a = std::make_shared<SweepArgs>();
  auto* cmd = app.add_subcommand("sweep", "run a scenario over a parameter range in parallel processes; merge into CSV and JSON");
  cmd->add_option("scenario", a->file, "scenario file (YAML)");
  cmd->add_option("--vary", a->vary, "key=start:stop:step (units allowed: 50ns:150ns:50ns) or key=a,b,c; repeat for a grid");
  cmd->add_option("--set", a->sets, "fixed override for every point: key=value");
  cmd->add_option("--jobs,-j", a->jobs, "simulations run at once (local backend)")->capture_default_str()->check(CLI::Range(1, 1024));
  cmd->add_option("--out,-o", a->out, "output folder (default: sweep-<scenario name>)");
  add_seed_option(cmd, a->seed, "seed for every point (default: the scenario's); with --seeds, the first seed");
  cmd->add_option("--seeds", a->seeds, "run every point with N seeds: the base seed + 0..N-1 (a 'seed' column)")->check(CLI::Range(1, 10000));
  cmd->add_flag("--resume", a->resume, "skip the points whose report and exit code are already in the output folder");
  cmd->add_option("--backend", a->backend, "where the points run: local processes or one Slurm job array")
      ->capture_default_str()->check(CLI::IsMember({"local", "slurm"}));
  cmd->add_option("--partition", a->slurm.partition, "Slurm partition (default: the cluster's default)");
  cmd->add_option("--max-parallel", a->slurm.max_parallel, "Slurm array tasks running at once (default: no limit)")->check(CLI::Range(1, 1000000));
  cmd->add_option("--scratch", a->slurm.scratch, "folder every cluster node sees, for the binary copy, task script and Slurm logs "
                                                "(default: OUT/slurm; the scenario and OUT must be shared too)");
  cmd->add_option("--retries", a->slurm.retries, "resubmissions of points that end without a result")->capture_default_str()->check(CLI::Range(0, 100));
  cmd->add_flag("--submit-only", a->submit_only, "submit the Slurm job array and exit; merge later with `sanvp sweep collect OUT`");
  cmd->footer("Exit code: 0 when every point exited 0; 2 when the sweep's own options are refused or any point's input was "
              "(its exit code 2, e.g. a --vary value out of range); else 3 when any point failed (exit 3 or another code) or has no "
              "result. Each point's exit code is in sweep.csv, its error in OUT/point-NNN.log.");
  auto* col = cmd->add_subcommand("collect", "merge a sweep's results (e.g. after --submit-only) from its folder");
  col->add_option("dir", a->collect_dir, "the sweep's output folder")->required();
  return [a, cmd, col]() -> int {
    if (col->parsed()) return collect_sweep(a->collect_dir);
    a->seed_given = cmd->count("--seed") > 0;
    return run_sweep(*a, cmd);
  };
}};

}  // namespace
}  // namespace sanvp
