// sanvp: command-line entry point. Thin by design: parsing here, models in hw/, running in
// platform/sim. Exit codes: 0 success, 2 bad input, 3 simulation failure (hang, scoreboard).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <systemc>

#include "platform/cli/commands.hpp"
#include "platform/core/error.hpp"
#include "platform/core/log.hpp"
#include "platform/core/params.hpp"
#include "platform/sim/run.hpp"
#include "platform/topo/scenario.hpp"

using namespace sanvp;

namespace {

// SystemC prints its banner from its own main() before sc_main; a static initializer runs
// earlier, so the tool's output stays its own.
const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();


void parse_window(const std::string& w, RunOptions& opt) {
  if (w.empty()) return;
  auto colon = w.find(':');
  if (colon == std::string::npos) throw UserError(fmt::format("--trace-window: '{}' is not FROM:TO (e.g. 10us:50us)", w));
  opt.trace_from = colon == 0 ? 0 : parse_time(w.substr(0, colon), "--trace-window");
  opt.trace_to = colon + 1 == w.size() ? kNever : parse_time(w.substr(colon + 1), "--trace-window");
  if (opt.trace_to < opt.trace_from) throw UserError(fmt::format("--trace-window: '{}' ends before it starts", w));
}

const char* type_name(ParamType t) {
  switch (t) {
    case ParamType::Time: return "time";
    case ParamType::Int: return "int";
    case ParamType::Real: return "real";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "string";
  }
  return "?";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // SystemC prints a banner and info reports by default; a tool's output should be its own.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);

  CLI::App app{"sanvp - SystemC virtual platform of Myrinet-class system area networks"};
  app.set_version_flag("--version", std::string("sanvp ") + SANVP_VERSION);
  app.require_subcommand(1);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "error, warn, info, debug, trace")->capture_default_str();

  RunOptions opt;
  std::string scenario, window;
  std::vector<std::string> sets;
  auto* run = app.add_subcommand("run", "run a scenario (the built-in default when none is given)");
  run->add_option("scenario", scenario, "scenario file (YAML)");
  run->add_option("--set", sets, "override a parameter or scenario value: key=value (see 'sanvp params')");
  run->add_option("--vcd", opt.vcd, "write waves to this VCD file");
  run->add_option("--report", opt.report, "report file")->capture_default_str();
  run->add_option("--seed", opt.seed, "random seed")->capture_default_str()->check(
      [](const std::string& v) { return v.rfind('-', 0) == 0 ? std::string("must be a non-negative integer, got " + v) : std::string(); });  // not wrapped to 2^64-n
  run->add_option("--trace", opt.trace, "comma-separated module patterns to trace, e.g. 'sw0.*,n1'");
  run->add_option("--trace-window", window, "trace only FROM:TO, e.g. 10us:50us");

  auto* params = app.add_subcommand("params", "list every model parameter: name, unit, default, meaning");

  // Subcommands of other subsystems, in name order so --help is stable.
  auto& reg = command_registry();
  std::sort(reg.begin(), reg.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  std::vector<std::pair<CLI::App*, CommandRun>> extra;
  for (auto& c : reg) {
    std::size_t before = app.get_subcommands({}).size();
    CommandRun r = c.setup(app);
    auto subs = app.get_subcommands({});
    extra.emplace_back(subs.size() > before ? subs.back() : nullptr, std::move(r));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : kExitUserError;
  } catch (const UserError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitUserError;
  }

  try {
    for (auto& [sub, fn] : extra)
      if (sub && sub->parsed()) return fn();
    log::set_level(log::parse_level(log_level));
    if (params->parsed()) {
      const auto all = ParamCatalog::sorted();
      std::size_t kw = 9, dw = 7, uw = 4;
      for (const auto& p : all) {
        kw = std::max(kw, p.key().size());
        dw = std::max(dw, p.def.size());
        uw = std::max(uw, p.unit.size());
      }
      fmt::print("{:<{}}  {:<6}  {:<{}}  {:<{}}  {}\n", "parameter", kw, "type", "unit", uw, "default", dw, "meaning");
      for (const auto& p : all)
        fmt::print("{:<{}}  {:<6}  {:<{}}  {:<{}}  {}\n", p.key(), kw, type_name(p.type), p.unit, uw, p.def, dw, p.meaning);
      return 0;
    }
    if (run->parsed()) {
      ParamValues pv;
      if (!scenario.empty()) {
        // Scenario file: its values, then --set overrides; command-line options beat its tracing
        // and seed settings.
        Scenario sc = load_scenario(scenario, sets, pv);
        opt.scenario = sc.name;
        if (sc.seed && run->count("--seed") == 0) opt.seed = *sc.seed;
        if (opt.vcd.empty()) opt.vcd = sc.vcd;
        if (opt.trace.empty()) opt.trace = sc.trace;
        parse_window(window.empty() ? sc.trace_window : window, opt);
        RunSpec spec = scenario_run_spec(sc);
        return run_simulation(pv, opt, spec).exit_code;
      }
      apply_sets(pv, sets);
      parse_window(window, opt);
      RunSpec spec = default_scenario(pv);
      return run_simulation(pv, opt, spec).exit_code;
    }
  } catch (const UserError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitUserError;
  } catch (const SimError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitSimError;
  } catch (const sc_core::sc_report& e) {
    fmt::print(stderr, "error: {}\n", e.get_msg());
    return kExitSimError;
  }
  return 0;
}
