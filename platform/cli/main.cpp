// sanvp: command-line entry point. Thin by design: parsing here, models in hw/, running in
// platform/sim. Exit codes: 0 success, 2 bad input, 3 simulation failure (hang, scoreboard).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>
#include <string_view>
#include <systemc>

#include "platform/cli/commands.hpp"
#include "platform/fw/debug_attach.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/log.hpp"
#include "hw/base/params.hpp"
#include "hw/nic/register.hpp"
#include "platform/sim/run.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/sim/timeline_cli.hpp"
#include "platform/sim/wave_cli.hpp"

using namespace sanvp;

namespace {

// SystemC prints its banner from its own main() before sc_main; a static initializer runs
// earlier, so the tool's output stays its own.
const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

// An option given with an empty value ("--report ''", "--sizes=") would silently mean its
// default; every command refuses it instead.
void check_no_empty_values(const CLI::App* app) {
  if (!app->parsed()) return;
  for (const CLI::Option* o : app->get_options()) {
    if (o->count() == 0 || o->get_expected_max() == 0) continue;
    for (const auto& r : o->results())
      if (r.empty()) throw UserError(fmt::format("{}: empty value (leave the option out for its default)", o->get_name()));
  }
  for (const CLI::App* sub : app->get_subcommands({})) check_no_empty_values(sub);
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

// The values a parameter accepts, as `sanvp params` shows them ("" = any of its type).
std::string accepted(const ParamSpec& p) {
  std::string c = p.choices;
  std::replace(c.begin(), c.end(), '|', ',');
  return p.type == ParamType::String ? c : p.range_text();
}

// `sanvp params`: every parameter, one line each.
int print_params() {
  const auto all = ParamCatalog::sorted();
  std::size_t kw = 9, dw = 7, uw = 4, rw = 5;
  for (const auto& p : all) {
    kw = std::max(kw, p.key().size());
    dw = std::max(dw, p.def.size());
    uw = std::max(uw, p.unit.size());
    rw = std::max(rw, accepted(p).size());
  }
  const auto line = [&](auto key, auto type, auto unit, auto def, auto range, auto meaning) {
    fmt::print("{:<{}}  {:<6}  {:<{}}  {:<{}}  {:<{}}  {}\n", key, kw, type, unit, uw, def, dw, range, rw, meaning);
  };
  line("parameter", "type", "unit", "default", "range", "meaning");
  for (const auto& p : all) line(p.key(), type_name(p.type), p.unit, p.def, accepted(p), p.meaning);
  return 0;
}

// `sanvp run [SCENARIO]`: its options, and the run.
struct RunCommand {
  CLI::App* app = nullptr;
  RunOptions opt;
  std::string scenario, window;
  std::vector<std::string> sets;
  fw::NetworkDebugOptions debug;

  void declare(CLI::App& parent) {
    app = parent.add_subcommand("run", "run a scenario (the built-in default when none is given)");
    app->add_option("scenario", scenario, "scenario file (YAML)");
    app->add_option("--set", sets, "override a parameter or scenario value: key=value (see 'sanvp params')");
    app->add_option("--vcd", opt.vcd, "write waves to this VCD file (FST for a name ending in .fst, through GTKWave's vcd2fst)");
    app->add_option("--probes", opt.probes, "write the NICs' probe timeline (time, node, RTC, tag, value) to this file: CSV if it ends in .csv, else JSON");
    app->add_option("--report", opt.report, "report file")->capture_default_str();
    add_seed_option(app, opt.seed, "random seed")->capture_default_str();
    app->add_option("--trace", opt.trace, "comma-separated module patterns to trace, e.g. 'sw0.*,n1'");
    app->add_option("--trace-window", window, "trace only FROM:TO, e.g. 10us:50us");
    add_timeline_options(app, opt.timeline, "run");
    add_fw_trace_options(app, opt.fw_trace_node, opt.fw_trace_file, opt.fw_trace_filter);
    fw::add_network_debug_options(app, debug);
    app->add_flag("--check", opt.check, "check work conservation of every link while running (platform/sim/fabric_monitor.hpp); a violation stops the run (exit 3)");
  }

  // --trace selects the waves' modules and --trace-window their window (and the timeline's by
  // default): without waves (--vcd or the scenario's tracing.vcd) they did nothing, without a word.
  void check_trace_options() const {
    if (opt.vcd.empty() && app->count("--trace")) throw UserError("--trace requires --vcd (or the scenario's tracing.vcd)");
    if (opt.vcd.empty() && opt.timeline.file.empty() && app->count("--trace-window"))
      throw UserError("--trace-window requires --vcd or --timeline (or the scenario's tracing.vcd)");
  }

  int run() {
    // Output paths first: a bad one is an error before the run, not after it.
    if (!opt.report.empty()) check_output_path(opt.report, "--report");
    if (!opt.vcd.empty()) check_output_path(opt.vcd, "--vcd");
    if (!opt.probes.empty()) check_output_path(opt.probes, "--probes");
    if (!opt.fw_trace_file.empty()) check_output_path(opt.fw_trace_file, "--fw-trace-file");
    if (!opt.timeline.file.empty()) check_output_path(opt.timeline.file, "--timeline");
    fw::hook_network_debugger(debug, opt);
    ParamValues pv;
    if (!scenario.empty()) {
      // Scenario file: its values, then --set overrides; command-line options beat its tracing
      // and seed settings.
      Scenario sc = load_scenario(scenario, sets, pv);
      opt.scenario = sc.name;
      if (sc.seed && app->count("--seed") == 0) opt.seed = *sc.seed;
      if (opt.vcd.empty() && !sc.vcd.empty()) check_output_path(opt.vcd = sc.vcd, "tracing.vcd");
      if (opt.trace.empty()) opt.trace = sc.trace;
      apply_trace_window(window.empty() ? sc.trace_window : window, opt);
      check_trace_options();
      RunSpec spec = scenario_run_spec(sc);
      return run_simulation(pv, opt, spec).exit_code;
    }
    apply_sets(pv, sets);
    apply_trace_window(window, opt);
    check_trace_options();
    RunSpec spec = default_scenario(pv);
    return run_simulation(pv, opt, spec).exit_code;
  }
};

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

  RunCommand run;
  run.declare(app);

  auto* params = app.add_subcommand("params", "list every model parameter: name, unit, default, meaning");
  bool registers = false, markdown = false;
  auto* registers_flag = params->add_flag("--registers", registers,
                                          "list the NIC register map instead: address, block, offset, name, access, reset, meaning");
  params->add_flag("--markdown", markdown, "with --registers: the table of docs/nic.md")->needs(registers_flag);

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

  // GTKWave starts a process filter (`^>1 /path/sanvp fw symbolize IMAGE` in a .gtkw) with
  // everything after the program as one argument: split that one back into words.
  std::vector<std::string> filter_words;
  if (argc == 2 && std::string_view(argv[1]).rfind("fw symbolize ", 0) == 0) {
    std::istringstream in(argv[1]);
    for (std::string w; in >> w;) filter_words.push_back(w);
    std::reverse(filter_words.begin(), filter_words.end());  // CLI11 takes a vector last word first
  }

  try {
    if (filter_words.empty()) app.parse(argc, argv);
    else app.parse(filter_words);
    // Before any command runs, so every subcommand logs at the level asked for.
    log::set_level(log::parse_level(log_level));
    check_no_empty_values(&app);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    fmt::print(stderr, "error: {}\n", e.what());  // one line, without CLI11's "Run with --help"
    return kExitUserError;
  } catch (const UserError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitUserError;
  }

  try {
    for (auto& [sub, fn] : extra)
      if (sub && sub->parsed()) return fn();
    if (params->parsed() && registers) {
      fmt::print("{}", markdown ? nic::RegisterCatalog::markdown() : nic::RegisterCatalog::text());
      return 0;
    }
    if (params->parsed()) return print_params();
    if (run.app->parsed()) return run.run();
  } catch (const UserError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitUserError;
  } catch (const SimError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitSimError;
  } catch (const IoError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitSimError;
  } catch (const sc_core::sc_report& e) {
    fmt::print(stderr, "error: {}\n", e.get_msg());
    return kExitSimError;
  }
  return 0;
}
