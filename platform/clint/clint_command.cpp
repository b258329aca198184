// `sanvp clint`: runs Clint latency-vs-load experiments (paper section 4) and prints a table;
// --json writes every counter for scripts/clint_experiments.py.
#include <CLI/CLI.hpp>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "platform/cli/commands.hpp"
#include "hw/clint/traffic.hpp"
#include "platform/clint/experiment.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/trace.hpp"
#include "platform/sim/report.hpp"

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
  bool arch_given = false, loads_given = false, bursty_given = false;
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

// Scenario presets: the paper's figures. An --arch, --loads or --bursty given with a preset
// replaces the preset's (e.g. one curve of a figure); it used to be silently overwritten.
void apply_preset(Options& o) {
  if (o.preset.empty()) return;
  std::string arch, loads, bursty = "both";
  if (o.preset == "fig8") { arch = "B1,B2,B3,B4"; loads = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9"; }
  else if (o.preset == "fig9") { arch = "Q1,Q2"; loads = "0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4"; }
  else if (o.preset == "table2") { arch = "B4,Q2"; loads = "0.1,0.3,0.5,0.7,0.9"; }
  else throw UserError(fmt::format("--preset: unknown preset '{}' (fig8, fig9, table2)", o.preset));
  if (!o.arch_given) o.arch = arch;
  if (!o.loads_given) o.loads = loads;
  if (!o.bursty_given) o.bursty = bursty;
}

std::vector<bool> burst_modes(const std::string& bursty) {
  if (bursty == "no") return {false};
  if (bursty == "yes") return {true};
  if (bursty == "both") return {false, true};
  throw UserError(fmt::format("--bursty: '{}' is not no, yes or both", bursty));
}

// Every (architecture, traffic, load) of the options, architectures outermost.
std::vector<ExperimentPoint> experiment_points(const Options& o) {
  const std::vector<bool> burst = burst_modes(o.bursty);
  std::vector<ExperimentPoint> points;
  for (const auto& a : split(o.arch)) {
    if (!known_arch(a)) throw UserError(fmt::format("--arch: unknown architecture '{}' (B1, B2, B3, B4, Q1, Q2)", a));
    for (bool b : burst)
      for (const auto& l : split(o.loads)) points.push_back({a, parse_load(l), b});
  }
  if (points.empty()) throw UserError("clint: no experiment points (check --arch and --loads)");
  return points;
}

int run(Options o) {
  apply_preset(o);
  ParamValues pv;
  apply_sets(pv, o.sets);
  if (!o.cycles.empty()) pv.set("clint.cycles", parse_cycles(o.cycles), "--cycles");
  ExperimentSetup setup = experiment_setup(pv, o.seed);
  setup.vcd = o.vcd;
  const std::vector<ExperimentPoint> points = experiment_points(o);
  Report rep;
  const Report::Output json = rep.output(o.json, "--json", /*make_folder=*/true);
  rep.output(o.vcd, "--vcd");
  double wall = 0;
  const nlohmann::json res = run_experiment(pv, setup, points, &wall);
  fmt::print("{}", experiment_table(setup, res));
  if (const std::size_t n = unmeasured_points(res))
    rep.warning(fmt::format("{} point(s) completed no packet after the warm-up (latency '-'): raise --cycles or the load", n));
  fmt::print("simulated {} cycles x {} points in {:.2f} s wall: {:.3g} cycles per wall second per point\n", setup.cycles,
             points.size(), wall, wall > 0 ? static_cast<double>(setup.cycles) * static_cast<double>(points.size()) / wall : 0.0);
  rep.write_json(json, res, 1);
  if (Tracer::global().active()) Tracer::global().close(setup.cycles * setup.cycle);  // after the results (experiment.cpp)
  return rep.exit_code();
}

const sanvp::CommandRegistrar reg{"clint", [](CLI::App& app) -> sanvp::CommandRun {
  auto opt = std::make_shared<Options>();
  auto* c = app.add_subcommand("clint", "Clint experiments: latency vs load of bulk (B1-B4) and quick (Q1, Q2) channels");
  c->add_option("--arch", opt->arch, "architectures, comma-separated: B1,B2,B3,B4,Q1,Q2")->capture_default_str();
  c->add_option("--loads", opt->loads, "offered loads, comma-separated fractions of link bandwidth")->capture_default_str();
  c->add_option("--bursty", opt->bursty, "no, yes or both")->capture_default_str();
  c->add_option("--preset", opt->preset, "paper scenario: fig8, fig9 or table2 (sets --arch, --loads, --bursty; any of them given "
                                         "replaces the preset's, e.g. --preset fig8 --arch B1 runs fig8's loads on B1 only)");
  c->add_option("--cycles", opt->cycles, "run length in 4 ns cycles, e.g. 1e6 (default clint.cycles = 1e7)");
  sanvp::add_seed_option(c, opt->seed, "random seed")->capture_default_str();
  c->add_option("--set", opt->sets, "override a parameter: key=value (see 'sanvp params', scopes clint*)");
  c->add_option("--json", opt->json, "write all results as JSON");
  c->add_option("--vcd", opt->vcd, "write waves of the scheduled bulk channel (slot, matching, grants) to this VCD file (FST for a name ending in .fst, through GTKWave's vcd2fst)");
  return [opt, c] {
    opt->arch_given = c->count("--arch") > 0;
    opt->loads_given = c->count("--loads") > 0;
    opt->bursty_given = c->count("--bursty") > 0;
    return run(*opt);
  };
}};

}  // namespace
}  // namespace sanvp::clint
