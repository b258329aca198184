// `sanvp clint`: runs Clint latency-vs-load experiments (paper section 4) and prints a table;
// --json writes every counter for scripts/clint_experiments.py.
#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>
#include <sstream>

#include "platform/cli/commands.hpp"
#include "hw/clint/traffic.hpp"
#include "platform/clint/experiment.hpp"
#include "platform/core/error.hpp"
#include "platform/core/io.hpp"

namespace sanvp::clint {
namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) if (!item.empty()) v.push_back(item);
  return v;
}

struct Options {
  std::string arch = "B4", loads = "0.5", bursty = "no", json, vcd, preset;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  std::string cycles;  // empty: clint.cycles
};

// One offered load of --loads: a finite fraction in [kMinLoad, 1].
double parse_load(const std::string& text) {
  const double l = parse_real(text, "--loads");
  if (!(l >= kMinLoad && l <= 1.0))
    throw UserError(fmt::format("--loads: {} is outside [{}, 1] (below {} a run of any length measures almost no packets)", text,
                                kMinLoad, kMinLoad));
  return l;
}

// --cycles: a whole number (1e7 allowed); 0 or a fraction is an error, not "use the default".
std::string parse_cycles(const std::string& text) {
  const double c = parse_real(text, "--cycles");
  if (c != std::floor(c) || c < 1 || c > 9e15) throw UserError(fmt::format("--cycles: '{}' is not a whole number of cycles >= 1", text));
  return fmt::format("{:.0f}", c);
}

// Scenario presets: the paper's figures.
void apply_preset(Options& o) {
  if (o.preset.empty()) return;
  if (o.preset == "fig8") { o.arch = "B1,B2,B3,B4"; o.loads = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9"; o.bursty = "both"; }
  else if (o.preset == "fig9") { o.arch = "Q1,Q2"; o.loads = "0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4"; o.bursty = "both"; }
  else if (o.preset == "table2") { o.arch = "B4,Q2"; o.loads = "0.1,0.3,0.5,0.7,0.9"; o.bursty = "both"; }
  else throw UserError(fmt::format("--preset: unknown preset '{}' (fig8, fig9, table2)", o.preset));
}

int run(Options o) {
  apply_preset(o);
  ParamValues pv;
  apply_sets(pv, o.sets);
  if (!o.cycles.empty()) pv.set("clint.cycles", parse_cycles(o.cycles), "--cycles");
  ExperimentSetup setup = experiment_setup(pv, o.seed);
  setup.vcd = o.vcd;
  std::vector<bool> burst;
  if (o.bursty == "no") burst = {false};
  else if (o.bursty == "yes") burst = {true};
  else if (o.bursty == "both") burst = {false, true};
  else throw UserError(fmt::format("--bursty: '{}' is not no, yes or both", o.bursty));
  std::vector<ExperimentPoint> points;
  for (const auto& a : split(o.arch)) {
    if (!known_arch(a)) throw UserError(fmt::format("--arch: unknown architecture '{}' (B1, B2, B3, B4, Q1, Q2)", a));
    for (bool b : burst)
      for (const auto& l : split(o.loads)) points.push_back({a, parse_load(l), b});
  }
  if (points.empty()) throw UserError("clint: no experiment points (check --arch and --loads)");
  // Check the report's path before simulating, so a bad path fails at once and not after the sweep.
  if (!o.json.empty()) {
    const std::filesystem::path dir = std::filesystem::path(o.json).parent_path();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
    check_output_path(o.json, "--json");
  }
  if (!o.vcd.empty()) check_output_path(o.vcd, "--vcd");
  double wall = 0;
  nlohmann::json res = run_experiment(pv, setup, points, &wall);
  fmt::print("clint: {} hosts, {} cycles of {} ps, seed {}, warm-up {:.0f} %\n", setup.hosts, setup.cycles, setup.cycle,
             setup.seed, setup.warmup * 100);
  fmt::print("{:<4} {:>5} {:<7} {:>12} {:>12} {:>10} {:>10} {:>9} {}\n", "arch", "load", "traffic", "latency_us",
             "max_us", "accepted", "coll_rate", "retx", "");
  std::size_t unmeasured = 0;
  for (const auto& p : res["points"]) {
    // No packet completed after the warm-up: there is no latency to show (not 0).
    const bool measured = p["latency_samples"].get<std::uint64_t>() > 0;
    unmeasured += measured ? 0 : 1;
    auto us = [&](const char* k) { return measured ? fmt::format("{:.3f}", p[k].get<double>()) : std::string("-"); };
    fmt::print("{:<4} {:>5.2f} {:<7} {:>12} {:>12} {:>10.4f} {:>10.4f} {:>9} {}\n", p["arch"].get<std::string>(), p["load"].get<double>(),
               p["bursty"].get<bool>() ? "bursty" : "smooth", us("mean_latency_us"), us("max_latency_us"), p["throughput"].get<double>(),
               p["collision_rate"].get<double>(), p["retransmissions"].get<std::uint64_t>(), p["saturated"].get<bool>() ? "saturated" : "");
  }
  if (unmeasured)
    fmt::print(stderr, "warning: {} point(s) completed no packet after the warm-up (latency '-'): raise --cycles or the load\n", unmeasured);
  fmt::print("simulated {} cycles x {} points in {:.2f} s wall: {:.3g} cycles per wall second per point\n", setup.cycles,
             points.size(), wall, wall > 0 ? static_cast<double>(setup.cycles) * static_cast<double>(points.size()) / wall : 0.0);
  if (!o.json.empty()) write_file_checked(o.json, res.dump(1) + "\n", "--json");
  return 0;
}

const sanvp::CommandRegistrar reg{"clint", [](CLI::App& app) -> sanvp::CommandRun {
  auto opt = std::make_shared<Options>();
  auto* c = app.add_subcommand("clint", "Clint experiments: latency vs load of bulk (B1-B4) and quick (Q1, Q2) channels");
  c->add_option("--arch", opt->arch, "architectures, comma-separated: B1,B2,B3,B4,Q1,Q2")->capture_default_str();
  c->add_option("--loads", opt->loads, "offered loads, comma-separated fractions of link bandwidth")->capture_default_str();
  c->add_option("--bursty", opt->bursty, "no, yes or both")->capture_default_str();
  c->add_option("--preset", opt->preset, "paper scenario: fig8, fig9 or table2 (sets --arch, --loads, --bursty)");
  c->add_option("--cycles", opt->cycles, "run length in 4 ns cycles, e.g. 1e6 (default clint.cycles = 1e7)");
  sanvp::add_seed_option(c, opt->seed, "random seed")->capture_default_str();
  c->add_option("--set", opt->sets, "override a parameter: key=value (see 'sanvp params', scopes clint*)");
  c->add_option("--json", opt->json, "write all results as JSON");
  c->add_option("--vcd", opt->vcd, "write waves of the scheduled bulk channel (slot, matching, grants)");
  return [opt] { return run(*opt); };
}};

}  // namespace
}  // namespace sanvp::clint
