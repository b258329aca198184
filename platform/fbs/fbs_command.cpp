// `sanvp fbs`: FBS synchronizing schedules and the skew model (fbs-nic-synchronization.txt).
//   sanvp fbs schedule TOPO [ARGS...]   the schedule as the paper's Tables 1/2 and the checker's verdict
//   sanvp fbs model [--set k=v]...      Eq. 5/8/10/11/12 in both GAP3 readings, Tables 3/4, Figures 4-6
// Each subcommand is one function (options, one runner, one report); kSubcommands lists them.
#include <fmt/format.h>
#include <memory>

#include "hw/base/error.hpp"
#include "hw/switch/switch_params.hpp"
#include "platform/fbs/fbs_model_params.hpp"
#include "platform/fbs/fbs_subcommand.hpp"
#include "platform/fbs/model_report.hpp"
#include "platform/fbs/schedule_run.hpp"
#include "platform/sim/report.hpp"

namespace sanvp::fbs {
namespace {

// Odr-use the declaration so `sanvp params` lists fbs.*.
const void* const g_fbs_params = &FbsModelParams::declared;

// Every subcommand of `sanvp fbs`, one line each.
const AddSubcommand kSubcommands[] = {
    schedule_subcommand,
    model_subcommand,
    run_subcommand,
    experiment_subcommand,
};

struct ScheduleOptions {
  std::string topo, json;
  std::vector<std::string> gen_args;
  ScheduleRequest req;
};

int schedule_command(const ScheduleOptions& o) {
  Report rep;
  const auto json = rep.output(o.json, "--json");
  const NetworkArg net = load_network_arg(o.topo, o.gen_args);
  const ScheduleRun r = run_schedule(net, o.req);
  fmt::print("{}", schedule_run_text(net, r));
  rep.begin(0, net.source, net.name);  // seed 0: nothing here is random
  rep.set_status(r.check.ok() ? "ok" : "failed");
  rep.results() = schedule_run_json(net, r);
  rep.write_json(json, rep.doc(), 1);
  if (!r.check.ok()) rep.error(fmt::format("the {} schedule is not a synchronizing schedule on {} ({} violations)", r.kind, net.name, r.check.violations.size()));
  return rep.exit_code();
}

struct ModelOptions {
  std::vector<std::string> sets, levels{"3", "4"};
  std::string ports, json;
};

int model_command(const ModelOptions& o) {
  Report rep;
  const auto json = rep.output(o.json, "--json");
  ParamValues pv;
  apply_sets(pv, o.sets);
  ModelRequest q;
  q.in = SkewInputs::from_params(pv);
  q.ports = static_cast<int>(o.ports.empty() ? SwitchParams::kPorts.get(pv) : parse_int(o.ports, "--ports", 2, 64));
  q.levels.clear();
  for (const auto& l : o.levels) q.levels.push_back(static_cast<int>(parse_int(l, "--levels", 2, 32)));
  pv.check_all_used();
  fmt::print("{}", model_text(q));
  rep.begin(0, {{"sets", o.sets}}, "fbs model");
  rep.set_status("ok");
  rep.results() = model_json(q);
  rep.doc()["params"] = pv.effective();
  rep.write_json(json, rep.doc(), 1);
  return rep.exit_code();
}

const CommandRegistrar g_fbs{"fbs", [](CLI::App& app) -> CommandRun {
  auto* fbs = app.add_subcommand("fbs", "FBS clock synchronization: synchronizing schedules and the skew model");
  fbs->require_subcommand(1);
  std::vector<Subcommand> subs;
  for (AddSubcommand add : kSubcommands) subs.push_back(add(*fbs));
  return [subs]() -> int {
    (void)g_fbs_params;
    for (const auto& s : subs)
      if (s.app->parsed()) return s.run();
    return 0;
  };
}};

}  // namespace

Subcommand schedule_subcommand(CLI::App& fbs) {
  auto o = std::make_shared<ScheduleOptions>();
  auto* sub = fbs.add_subcommand("schedule", "print the SSS/HSS synchronizing schedule of a network (paper Tables 1, 2) and check it");
  sub->add_option("topo", o->topo, "topology or scenario file, or a generator type (then its key=value arguments follow)")->required();
  sub->add_option("args", o->gen_args, "generator arguments key=value (as `sanvp topo gen`)");
  sub->add_option("--kind", o->req.kind, "sss, hss or auto (sss on a single switch, hss otherwise)")->capture_default_str();
  sub->add_option("--routes", o->req.routes, "check against the run's routes (run) or the spanning tree's (tree)")->capture_default_str();
  sub->add_option("--json", o->json, "write the schedule and the check to this JSON file");
  return {sub, [o] { return schedule_command(*o); }};
}

Subcommand model_subcommand(CLI::App& fbs) {
  auto o = std::make_shared<ModelOptions>();
  auto* sub = fbs.add_subcommand("model", "the analytic skew model (paper section 4) in both GAP3 readings, Tables 3, 4 and Figures 4-6");
  sub->add_option("--set", o->sets, "override a parameter: key=value (link.ld, link.cp, switch.rd, switch.sd, fc.*, fbs.slot_bytes, fbs.drift)");
  sub->add_option("--levels", o->levels, "HSS tree levels m for Eq. 10 (default 3,4)")->delimiter(',');
  sub->add_option("--ports", o->ports, "switch size for the schedule lengths of Eq. 12 (default switch.ports)");
  sub->add_option("--json", o->json, "write the values to this JSON file");
  return {sub, [o] { return model_command(*o); }};
}

}  // namespace sanvp::fbs
