// `sanvp sweep FILE --vary key=start:stop:step ... --jobs N`: runs every point of the sweep as an
// independent `sanvp run` process (a SystemC kernel runs once per process), at most N at a time,
// shows progress, and merges the points' reports into sweep.csv and sweep.json.
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/sim/report.hpp"
#include "hw/base/time.hpp"
#include "platform/sweep/process_pool.hpp"
#include "platform/sweep/sweep_merge.hpp"
#include "platform/sweep/sweep_plan.hpp"
#include "platform/scenario/scenario.hpp"

namespace sanvp {
namespace {

struct SweepArgs {
  std::string file, out;
  std::vector<std::string> vary, sets;
  int jobs = 2;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

// Checks the scenario with the first and last points before starting processes, so a mistake is
// one message instead of N failed runs; the output folder defaults to sweep-<scenario name>.
void check_points(SweepArgs& a, const std::vector<Point>& points) {
  for (const auto* p : {&points.front(), &points.back()}) {
    std::vector<std::string> sets = a.sets;
    for (const auto& [k, v] : *p) sets.push_back(k + "=" + v);
    ParamValues pv;
    Scenario s = load_scenario(a.file, sets, pv);
    scenario_run_spec(s);
    if (a.out.empty()) a.out = "sweep-" + s.name;
  }
}

std::string point_label(const Point& p) {
  std::string s;
  for (const auto& [k, v] : p) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

std::string point_file(const SweepArgs& a, std::size_t i, const char* ext) { return sweep_point_file(a.out, i, ext); }

// Every point as a `sanvp run` child process (platform/sweep/process_pool.hpp).
std::vector<ChildJob> point_jobs(const SweepArgs& a, const std::vector<Point>& points, const std::string& exe) {
  std::vector<ChildJob> jobs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    ChildJob j;
    j.argv = {exe, "run", a.file, "--report", point_file(a, i, "json")};
    for (const auto& s : a.sets) { j.argv.push_back("--set"); j.argv.push_back(s); }
    for (const auto& [k, v] : points[i]) { j.argv.push_back("--set"); j.argv.push_back(k + "=" + v); }
    if (a.seed_given) { j.argv.push_back("--seed"); j.argv.push_back(std::to_string(a.seed)); }
    j.log = point_file(a, i, "log");
    j.report = point_file(a, i, "json");
    j.label = fmt::format("point {} ({})", i, point_label(points[i]));
    jobs.push_back(std::move(j));
  }
  return jobs;
}

int run_sweep(SweepArgs& a) {
  if (a.jobs < 1) throw UserError("--jobs must be at least 1");
  std::vector<SweepAxis> axes;
  for (const auto& v : a.vary) axes.push_back(parse_vary(v));
  const auto points = sweep_points(axes);
  check_points(a, points);
  make_output_folder(a.out, "--out");
  Report().output(a.out + "/sweep.csv", "--out");
  const std::string exe = self_exe("sweep");
  fmt::print(stderr, "sweep: {} points of {} with {} job(s) into {}/\n", points.size(), a.file, a.jobs, a.out);
  std::vector<int> exit_codes;
  for (const ChildResult& r : run_children(point_jobs(a, points, exe), a.jobs, "sweep")) exit_codes.push_back(r.exit_code);
  const int worst = merge_sweep({a.out, a.file, a.vary, a.sets}, axes, points, exit_codes);
  fmt::print("sweep: {} points, {} ok; results: {}/sweep.csv and {}/sweep.json\n", points.size(),
             std::count(exit_codes.begin(), exit_codes.end(), 0), a.out, a.out);
  fmt::print("plot:  /usr/bin/python3 scripts/plot_sweep.py {}/sweep.csv\n", a.out);
  return worst;
}

const CommandRegistrar reg_sweep{"sweep", [](CLI::App& app) -> CommandRun {
  auto a = std::make_shared<SweepArgs>();
  auto* cmd = app.add_subcommand("sweep", "run a scenario over a parameter range in parallel processes; merge into CSV and JSON");
  cmd->add_option("scenario", a->file, "scenario file (YAML)")->required();
  cmd->add_option("--vary", a->vary, "key=start:stop:step (units allowed: 50ns:150ns:50ns) or key=a,b,c; repeat for a grid")->required();
  cmd->add_option("--set", a->sets, "fixed override for every point: key=value");
  cmd->add_option("--jobs,-j", a->jobs, "simulations run at once")->capture_default_str();
  cmd->add_option("--out,-o", a->out, "output folder (default: sweep-<scenario name>)");
  add_seed_option(cmd, a->seed, "seed for every point (default: the scenario's)");
  return [a, cmd]() -> int {
    a->seed_given = cmd->count("--seed") > 0;
    return run_sweep(*a);
  };
}};

}  // namespace
}  // namespace sanvp
