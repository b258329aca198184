// `sanvp grim experiment [--out DIR] [--quick] [--jobs N]`: the GRIM paper's Table 1 and Figure 3
// (with and without packet loss) and the firmware breakdown behind them; writes DIR/results.json,
// table1.md, fig3.md, breakdown.md and the PNG plots of scripts/grim_plots.py. Each point is a
// child process; `--burst-point` runs one burst point of Figure 3 in this process (the children).
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "hw/base/error.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/grim/grim_experiment.hpp"
#include "platform/grim/grim_experiment_burst.hpp"
#include "platform/grim/grim_experiment_command.hpp"
#include "platform/sim/report.hpp"

namespace sanvp::grim_host {
namespace {

struct Opts {
  ExperimentOptions exp;
  std::string jobs = "2";
  bool burst_point = false;
  std::string burst = "64", credits = "0", loss = "0", senders = "1", nodes = "16", report = "grim_burst.json";
  std::vector<std::string> sets;
};

int burst_command(const Opts& o) {
  GrimBurstOptions b;
  b.burst = static_cast<std::uint32_t>(parse_int(o.burst, "--burst", 1, 1 << 16));
  b.credits = static_cast<std::uint32_t>(parse_int(o.credits, "--host-credits", 0, 64));
  b.packet_loss = parse_real(o.loss, "--packet-loss");
  b.nodes = static_cast<int>(parse_int(o.nodes, "--nodes", 2, 16));
  b.senders = static_cast<int>(parse_int(o.senders, "--senders", 1, b.nodes - 1));
  b.seed = o.exp.seed;
  b.grim.pool = burst_pool();
  ParamValues pv;
  apply_sets(pv, o.sets);
  Report rep;
  const auto report = rep.output(o.report, "--report");
  const fw::Image im = fw::Image::load(fw::builtin_firmware_image("grim"));
  const GrimBurstResult r = run_grim_burst(pv, im, b);
  std::cout << r.table;
  rep.write_json(report, r.report, 1);
  if (r.exit_code) rep.fail(r.exit_code);
  return rep.exit_code();
}

int experiment_command(Opts& o) {
  if (o.burst_point) return burst_command(o);
  o.exp.jobs = static_cast<int>(parse_int(o.jobs, "--jobs", 1, 64));
  const ExperimentPlan plan = experiment_plan(o.exp);
  const ExperimentResults r = run_experiment(o.exp, plan);
  write_experiment(o.exp, r);
  std::cout << "## Table 1\n\n" << table1_markdown(r) << "\n## Breakdown\n\n" << breakdown_markdown(r);
  fmt::print("results: {0}/results.json, {0}/table1.md, {0}/fig3.md, {0}/breakdown.md (seed {1})\n", o.exp.out, o.exp.seed);
  int code = r.failures ? kExitSimError : 0;
  if (r.failures) fmt::print(stderr, "grim experiment: {} point(s) failed: see {}/points/*.log\n", r.failures, o.exp.out);
  if (o.exp.plots && draw_plots(o.exp) != 0) code = kExitSimError;
  return code;
}

}  // namespace

GrimSubcommand experiment_subcommand(CLI::App& grim) {
  auto o = std::make_shared<Opts>();
  auto* sub = grim.add_subcommand("experiment", "the GRIM paper's Table 1 and Figure 3 (also under packet loss), with the firmware breakdown "
                                                "(tables, JSON, PNG)");
  sub->add_option("--out,-o", o->exp.out, "output folder")->capture_default_str();
  sub->add_flag("--quick", o->exp.quick, "a small subset (CI): fewer sizes and burst lengths, one loss rate");
  sub->add_option("--jobs,-j", o->jobs, "simulations run at once (1..64, default 2)");
  sub->add_flag("!--no-plots", o->exp.plots, "do not draw the PNG plots (scripts/grim_plots.py)");
  add_seed_option(sub, o->exp.seed, "seed of every point (default 1)");
  auto* g = "one Figure 3 point (the experiment's child processes)";
  sub->add_flag("--burst-point", o->burst_point, "run one burst point in this process instead: " + std::string(g))->group("burst point");
  sub->add_option("--burst", o->burst, "messages in the burst (1..65536, default 64)")->group("burst point");
  sub->add_option("--host-credits", o->credits, "host credits per destination, 0 = GRIM's optimistic flow control (default 0)")->group("burst point");
  sub->add_option("--packet-loss", o->loss, "probability a data packet is lost (fault.drop per flit is derived; default 0)")->group("burst point");
  sub->add_option("--senders", o->senders, "nodes 1..N burst to node 0 (default 1)")->group("burst point");
  sub->add_option("--nodes", o->nodes, "hosts on the switch (2..16, default 16)")->group("burst point");
  sub->add_option("--report", o->report, "the burst point's report (default grim_burst.json)")->group("burst point");
  sub->add_option("--set", o->sets, "parameter override key=value (repeatable)")->group("burst point");
  return {sub, [o] { return experiment_command(*o); }};
}

}  // namespace sanvp::grim_host
