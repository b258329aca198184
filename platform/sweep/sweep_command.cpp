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

double num(const nlohmann::json& j, const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : NAN; }

std::string report_status(const nlohmann::json& rep) { return rep.contains("status") ? rep["status"].get<std::string>() : "no-report"; }

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

using Point = std::vector<std::pair<std::string, std::string>>;

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

std::string point_file(const SweepArgs& a, std::size_t i, const char* ext) { return fmt::format("{}/point-{:03d}.{}", a.out, i, ext); }

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

std::string csv_header(const std::vector<SweepAxis>& axes) {
  std::string h = "point";
  for (const auto& ax : axes) h += "," + csv_cell(ax.key);
  return h + ",exit_code,status,packets_created,packets_delivered,latency_mean_ns,latency_p50_ns,latency_p99_ns,latency_max_ns,"
             "net_latency_p50_ns,net_latency_p99_ns,accepted_MBps_per_node,offered_load,max_link_utilization,simulated_us\n";
}

// One CSV row of point i from its report `rep` (empty cells for what it does not have).
std::string csv_row(std::size_t i, const Point& point, int exit_code, const nlohmann::json& rep) {
  const nlohmann::json res = rep.contains("results") ? rep["results"] : nlohmann::json::object();
  const nlohmann::json L = res.contains("latency") ? res["latency"] : nlohmann::json::object();
  const nlohmann::json N = res.contains("network_latency") ? res["network_latency"] : nlohmann::json::object();
  const double sim_ps = num(rep, "simulated_ps");
  double maxu = 0, window_ps = NAN;
  auto param = [&](const char* key) -> std::string {
    if (!rep.contains("params") || !rep["params"].contains(key)) return "";
    return rep["params"][key]["value"].get<std::string>();
  };
  if (!param("sim.duration").empty()) window_ps = static_cast<double>(parse_time(param("sim.duration"), "sim.duration"));
  const double nodes = res.contains("nodes") ? static_cast<double>(res["nodes"].size()) : NAN;
  if (res.contains("links")) for (const auto& l : res["links"]) maxu = std::max(maxu, l["utilization"].get<double>());
  std::string offered;
  for (const auto& [k, v] : point) if (k == "traffic.load") offered = v;
  if (offered.empty()) offered = param("traffic.load");
  auto ns = [](double ps) { return std::isnan(ps) ? std::string("") : fmt::format("{:.3f}", ps / 1000.0); };
  // Accepted throughput: payload delivered per node per second of the traffic window.
  const double thr = window_ps > 0 ? num(res, "payload_bytes_delivered") / nodes / (window_ps * 1e-12) / 1e6 : NAN;
  std::ostringstream csv;
  csv << i;
  for (const auto& [k, v] : point) csv << "," << csv_cell(v);
  csv << "," << exit_code << "," << report_status(rep) << "," << (res.contains("packets_created") ? res["packets_created"].dump() : "") << ","
      << (res.contains("packets_delivered") ? res["packets_delivered"].dump() : "") << "," << ns(num(L, "mean_ps")) << ","
      << ns(num(L, "p50_ps")) << "," << ns(num(L, "p99_ps")) << "," << ns(num(L, "max_ps")) << "," << ns(num(N, "p50_ps")) << ","
      << ns(num(N, "p99_ps")) << "," << (std::isnan(thr) ? "" : fmt::format("{:.3f}", thr)) << "," << offered << ","
      << (res.contains("links") ? fmt::format("{:.6f}", maxu) : "") << "," << (std::isnan(sim_ps) ? "" : fmt::format("{:.3f}", sim_ps / 1e6))
      << "\n";
  return csv.str();
}

// Merges the points' reports into sweep.csv and sweep.json; returns the sweep's exit code (bad
// input in any point wins over a failed simulation).
int merge(const SweepArgs& a, const std::vector<SweepAxis>& axes, const std::vector<Point>& points, const std::vector<int>& exit_codes) {
  std::string csv = csv_header(axes);
  nlohmann::json merged{{"scenario", a.file}, {"vary", a.vary}, {"sets", a.sets}, {"points", nlohmann::json::array()}};
  int worst = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const nlohmann::json rep = read_json_file(point_file(a, i, "json"));
    csv += csv_row(i, points[i], exit_codes[i], rep);
    nlohmann::json set = nlohmann::json::object();
    for (const auto& [k, v] : points[i]) set[k] = v;
    merged["points"].push_back({{"point", i}, {"set", set}, {"exit_code", exit_codes[i]}, {"status", report_status(rep)},
                                {"report", point_file(a, i, "json")},
                                {"results", rep.contains("results") ? rep["results"] : nlohmann::json::object()}});
    if (exit_codes[i] != 0) worst = worst == kExitUserError || exit_codes[i] == kExitUserError ? kExitUserError : kExitSimError;
  }
  Report out;
  out.write({a.out + "/sweep.csv", "sweep"}, csv);
  out.write_json({a.out + "/sweep.json", "sweep"}, merged, 2);
  return worst;
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
  const int worst = merge(a, axes, points, exit_codes);
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
