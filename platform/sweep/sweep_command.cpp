// `sanvp sweep FILE --vary key=start:stop:step ... --jobs N`: runs every point of the sweep as an
// independent `sanvp run` process (a SystemC kernel runs once per process), at most N at a time,
// shows progress, and merges the points' reports into sweep.csv and sweep.json.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/sim/report.hpp"
#include "hw/base/time.hpp"
#include "platform/sweep/sweep_plan.hpp"
#include "platform/scenario/scenario.hpp"

namespace sanvp {
namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string file, out;
  std::vector<std::string> vary, sets;
  int jobs = 2;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

std::string self_exe() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw UserError("sweep: cannot locate the sanvp executable (/proc/self/exe)");
  return p.string();
}

// Starts one point; its stdout and stderr go to `log`.
pid_t launch(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw SimError("sweep: fork failed");
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); close(fd); }
    execv(a[0], a.data());
    _exit(127);
  }
  return pid;
}

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

void make_folder(const std::string& out) {
  std::error_code dir_ec;
  fs::create_directories(out, dir_ec);
  if (!fs::is_directory(out, dir_ec))
    throw UserError(fmt::format("--out: cannot create the folder '{}'{}", out, dir_ec ? ": " + dir_ec.message() : ""));
}

std::string point_label(const Point& p) {
  std::string s;
  for (const auto& [k, v] : p) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

// Runs every point as a `sanvp run` process, at most --jobs at a time, with a progress line per
// finished point; returns each point's exit code.
class PointPool {
 public:
  PointPool(const SweepArgs& a, const std::vector<Point>& points, std::string exe)
      : a_(a), points_(points), exe_(std::move(exe)), exit_codes_(points.size(), -1), started_(points.size()) {}

  std::string file(std::size_t i, const char* ext) const { return fmt::format("{}/point-{:03d}.{}", a_.out, i, ext); }

  std::vector<int> run() {
    while (done_ < points_.size()) {
      while (next_ < points_.size() && static_cast<int>(running_.size()) < a_.jobs) start(next_++);
      wait_one();
    }
    return exit_codes_;
  }

 private:
  void start(std::size_t i) {
    std::vector<std::string> argv{exe_, "run", a_.file, "--report", file(i, "json")};
    for (const auto& s : a_.sets) { argv.push_back("--set"); argv.push_back(s); }
    for (const auto& [k, v] : points_[i]) { argv.push_back("--set"); argv.push_back(k + "=" + v); }
    if (a_.seed_given) { argv.push_back("--seed"); argv.push_back(std::to_string(a_.seed)); }
    std::error_code ec;
    fs::remove(file(i, "json"), ec);
    started_[i] = std::chrono::steady_clock::now();
    running_[launch(argv, file(i, "log"))] = i;
  }

  void wait_one() {
    int st = 0;
    const pid_t pid = waitpid(-1, &st, 0);
    if (pid < 0) throw SimError("sweep: waitpid failed");
    auto it = running_.find(pid);
    if (it == running_.end()) return;
    const std::size_t i = it->second;
    running_.erase(it);
    exit_codes_[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_[i]).count();
    ++done_;
    fmt::print(stderr, "[{}/{}] point {} ({}): {} in {:.1f}s\n", done_, points_.size(), i, point_label(points_[i]),
               exit_codes_[i] == 0 ? "ok" : fmt::format("exit {} (see {})", exit_codes_[i], file(i, "log")), seconds);
  }

  const SweepArgs& a_;
  const std::vector<Point>& points_;
  std::string exe_;
  std::map<pid_t, std::size_t> running_;
  std::vector<int> exit_codes_;
  std::vector<std::chrono::steady_clock::time_point> started_;
  std::size_t next_ = 0, done_ = 0;
};

// A point's report, or null when it wrote none (or an unreadable one).
nlohmann::json read_report(const std::string& path) {
  nlohmann::json rep;
  std::ifstream f(path);
  if (f) {
    try { f >> rep; } catch (const std::exception&) { rep = nlohmann::json(); }
  }
  return rep;
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
int merge(const SweepArgs& a, const std::vector<SweepAxis>& axes, const std::vector<Point>& points, const PointPool& pool,
          const std::vector<int>& exit_codes) {
  std::string csv = csv_header(axes);
  nlohmann::json merged{{"scenario", a.file}, {"vary", a.vary}, {"sets", a.sets}, {"points", nlohmann::json::array()}};
  int worst = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const nlohmann::json rep = read_report(pool.file(i, "json"));
    csv += csv_row(i, points[i], exit_codes[i], rep);
    nlohmann::json set = nlohmann::json::object();
    for (const auto& [k, v] : points[i]) set[k] = v;
    merged["points"].push_back({{"point", i}, {"set", set}, {"exit_code", exit_codes[i]}, {"status", report_status(rep)},
                                {"report", pool.file(i, "json")},
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
  make_folder(a.out);
  Report().output(a.out + "/sweep.csv", "--out");
  const std::string exe = self_exe();
  fmt::print(stderr, "sweep: {} points of {} with {} job(s) into {}/\n", points.size(), a.file, a.jobs, a.out);
  PointPool pool(a, points, exe);
  const std::vector<int> exit_codes = pool.run();
  const int worst = merge(a, axes, points, pool, exit_codes);
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
