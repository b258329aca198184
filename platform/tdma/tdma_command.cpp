// `sanvp tdma`: the TDMA real-time scheduler (tdma-realtime-myrinet.txt, section 5.4, Appendix A).
//   sanvp tdma schedule STREAMS TOPO [ARGS...] [--set k=v]... [--rows N] [--json FILE]
// prints the slot x link table, every stream's admission result (with the reason of each
// rejection), the checker's verdict and a summary. Rejections are results (exit 0); bad input
// exits 2, a schedule the checker refuses (a scheduler bug) exits 3.
#include <fmt/format.h>
#include <memory>

#include "platform/cli/commands.hpp"
#include "platform/scenario/network_arg.hpp"
#include "platform/sim/report.hpp"
#include "platform/tdma/experiment_command.hpp"
#include "platform/tdma/schedule_report.hpp"
#include "platform/tdma/run_command.hpp"
#include "platform/tdma/schedule_run.hpp"
#include "platform/tdma/sync_command.hpp"

namespace sanvp::tdma {
namespace {

// Odr-use the declaration so `sanvp params` lists tdma.*.
const void* const g_tdma_params = &TdmaParams::declared;

struct ScheduleOptions {
  std::string streams, topo, json;
  std::vector<std::string> gen_args, sets;
  std::int64_t rows = 400;
};

int schedule_command(const ScheduleOptions& o) {
  (void)g_tdma_params;
  Report rep;
  const auto json = rep.output(o.json, "--json");
  ParamValues pv;
  apply_sets(pv, o.sets);
  const TdmaParams params = TdmaParams::from_params(pv);
  pv.check_all_used();
  const StreamFile file = load_stream_file(o.streams);
  // The TOPO argument as every protocol command takes it: a topology or scenario file, or a generator.
  const NetworkArg net = load_network_arg(o.topo, o.gen_args);
  const ScheduleRun r = run_tdma_schedule(file, net.name, net.topo, net.routes, net.routing, params);
  fmt::print("{}", schedule_text(r, o.rows));
  rep.begin(0, {{"streams", o.streams}, {"network", net.source}}, r.file.name.empty() ? o.streams : r.file.name);  // nothing is random
  rep.set_status(r.check.ok() ? "ok" : "failed");
  rep.results() = schedule_json(r);
  rep.doc()["params"] = pv.effective();
  rep.write_json(json, rep.doc(), 1);
  if (!r.check.ok()) rep.error(fmt::format("the scheduler produced a schedule the checker refuses ({} violations)", r.check.violations.size()));
  return rep.exit_code();
}

const CommandRegistrar g_tdma{"tdma", [](CLI::App& app) -> CommandRun {
  auto* tdma = app.add_subcommand("tdma", "TDMA real-time streams: the thesis's scheduler (EDF, contiguous first fit, link reservation)");
  tdma->require_subcommand(1);
  auto o = std::make_shared<ScheduleOptions>();
  auto* sub = tdma->add_subcommand("schedule", "schedule a stream file on a network: slot x link table, admission with reasons, check");
  sub->add_option("streams", o->streams, "stream file (YAML: docs/tdma.md)")->required();
  sub->add_option("topo", o->topo, "topology or scenario file, or a generator type (then its key=value arguments follow)")->required();
  sub->add_option("args", o->gen_args, "generator arguments key=value (as `sanvp topo gen`)");
  sub->add_option("--set", o->sets, "override a parameter: key=value (tdma.*, see 'sanvp params')");
  sub->add_option("--rows", o->rows, "print at most this many slots of the table")->check(CLI::Range(std::int64_t{0}, std::int64_t{1000000}))->capture_default_str();
  sub->add_option("--json", o->json, "write the schedule, the admissions and the check to this JSON file");
  const SyncSubcommand sync = sync_subcommand(*tdma);  // sanvp tdma sync [TOPO]: platform/tdma/sync_command.cpp
  const SyncSubcommand run = run_subcommand(*tdma);    // sanvp tdma run STREAMS TOPO: platform/tdma/run_command.cpp
  const SyncSubcommand exp = experiment_subcommand(*tdma);  // sanvp tdma experiment: platform/tdma/experiment_command.cpp
  return [o, sync, run, exp]() -> int {
    if (exp.app->parsed()) return exp.run();
    if (run.app->parsed()) return run.run();
    return sync.app->parsed() ? sync.run() : schedule_command(*o);
  };
}};

}  // namespace
}  // namespace sanvp::tdma
