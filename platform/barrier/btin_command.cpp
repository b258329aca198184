// `sanvp btin`: the BTIN barrier on the paper's example and the analytical model, with the
// btin.* parameters (see `sanvp params`); `sanvp btin experiment`: the paper's Section 5
// experiments on random irregular networks, written as CSV and JSON.
#include <fmt/format.h>


#include "hw/barrier/barrier_unit_tl.hpp"
#include "platform/barrier/btin_report.hpp"
#include "platform/barrier/experiment.hpp"
#include "platform/barrier/flit_run.hpp"
#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "platform/sim/report.hpp"

namespace {

// Odr-use the parameter declarations so `sanvp params` lists them.
const void* const g_barrier_params[] = {&sanvp::barrier::BarrierUnitConfig::declared, &sanvp::barrier::LatencyParams::declared};

struct Options {
  std::vector<std::string> sets;
  sanvp::barrier::ExperimentConfig exp;
  std::vector<int> sizes;
  std::string csv, json;
  sanvp::barrier::FlitRunConfig flit;
  std::vector<int> flit_sizes;
  std::string flit_json;
};

sanvp::ParamValues params_from(const std::vector<std::string>& sets) {
  sanvp::ParamValues pv;
  sanvp::apply_sets(pv, sets);
  return pv;
}

// Counts of 0 would run nothing (or, for registers, a different experiment) without a word.
void at_least_1(const char* opt, int v) {
  if (v < 1) throw sanvp::UserError(fmt::format("{}: {} must be at least 1", opt, v));
}

// `sanvp btin flit`: the flit-level barriers against the model; a failed run is a simulation
// failure: its errors on stderr, exit 3 (the table keeps them too).
int flit_command(const Options& o, sanvp::ParamValues& pv) {
  for (int s : o.flit_sizes) at_least_1("--sizes", s);
  sanvp::Report rep;
  const auto json = rep.output(o.flit_json, "--json");
  auto fc = o.flit;
  if (!o.flit_sizes.empty()) fc.sizes = o.flit_sizes;
  const auto r = sanvp::barrier::run_flit_barriers(pv, fc);
  fmt::print("{}", sanvp::barrier::flit_table(fc, r));
  rep.write_json(json, sanvp::barrier::flit_json(fc, r), 1);
  for (const auto& e : r.errors) rep.error(e);
  return rep.exit_code();
}

// `sanvp btin experiment`: the paper's Section 5 comparison on random irregular networks.
int experiment_command(const Options& o, const sanvp::barrier::LatencyParams& lat) {
  for (int s : o.sizes) at_least_1("--sizes", s);
  sanvp::Report rep;
  const auto json = rep.output(o.json, "--json");
  const auto csv = rep.output(o.csv, "--csv");
  auto c = o.exp;
  c.lat = lat;
  if (!o.sizes.empty()) {
    c.sizes = o.sizes;
  } else {
    c.sizes.clear();
    for (int n = 2; n <= std::min(256, c.nodes); n *= 2) c.sizes.push_back(n);
  }
  const auto r = sanvp::barrier::run_experiment(c);
  // A refused configuration still gets its JSON (with "error"), so a script can tabulate it.
  rep.write_json(json, sanvp::barrier::experiment_json(r), 1);
  if (!r.config_error.empty()) {
    rep.error(r.config_error, sanvp::kExitUserError);
    return rep.exit_code();
  }
  fmt::print("{}", sanvp::barrier::experiment_table(r));
  rep.write(csv, sanvp::barrier::experiment_csv(r));
  return rep.exit_code();
}

// The random irregular network of `experiment` and `flit` (paper Section 5), in the ranges of
// its generator (topo gen irregular); a group has at least 2 nodes.
void add_network_options(CLI::App* app, int& nodes, int& switches, int& ports, double& f) {
  sanvp::add_int_option(app, "--nodes", nodes, 2, 1000000, fmt::format("nodes p (2..1000000, default {})", nodes));
  sanvp::add_int_option(app, "--switches", switches, 1, 10000, fmt::format("switches q (1..10000, default {})", switches));
  sanvp::add_int_option(app, "--ports", ports, 2, 64, fmt::format("ports per switch k (2..64, default {})", ports));
  app->add_option("--f", f, "connectivity f")->capture_default_str();
}

sanvp::CommandRegistrar g_btin{"btin", [](CLI::App& app) -> sanvp::CommandRun {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("btin", "BTIN barrier: group setup on the paper's example and the latency model");
  sub->add_option("--set", opt->sets, "override a parameter: key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root)");
  auto* exp = sub->add_subcommand("experiment", "BTIN vs unicast vs multicast on random irregular networks (paper Section 5)");
  auto& c = opt->exp;
  add_network_options(exp, c.nodes, c.switches, c.ports, c.f);
  exp->add_option("--sizes", opt->sizes, "group sizes (default 2,4,...,256 up to the node count)")->delimiter(',');
  sanvp::add_int_option(exp, "--runs", c.runs, 1, 1000000, fmt::format("runs per group size (a new network and group each; default {})", c.runs));
  sanvp::add_seed_option(exp, c.seed, "seed: run r uses network seed+r")->capture_default_str();
  sanvp::add_int_option(exp, "--registers", c.registers, 1, 256, fmt::format("barrier registers per switch (default {})", c.registers));
  exp->add_option("--set", opt->sets, "override a parameter: key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root)");
  exp->add_option("--csv", opt->csv, "write one row per run to this CSV file");
  exp->add_option("--json", opt->json, "write the per-size summary to this JSON file");
  auto* flit = sub->add_subcommand("flit", "BTIN barriers in the flit-level simulator on a random irregular network, vs the model");
  auto& fc = opt->flit;
  add_network_options(flit, fc.nodes, fc.switches, fc.ports, fc.f);
  flit->add_option("--sizes", opt->flit_sizes, "group sizes (default 2,16,64,256)")->delimiter(',');
  sanvp::add_int_option(flit, "--groups", fc.groups, 1, 1000000, fmt::format("groups per size (default {})", fc.groups));
  sanvp::add_seed_option(flit, fc.seed, "network seed")->capture_default_str();
  flit->add_option("--set", opt->sets, "override a parameter: key=value (link.*, switch.*, barrier.*, btin.t_s)");
  flit->add_option("--json", opt->flit_json, "write the samples to this JSON file");
  flit->add_flag("--setup-once", [opt](std::int64_t) { opt->flit.every_member = false; },
                 "compute each group's setup once instead of by every member (same registers, faster)");
  return [opt, exp, flit]() -> int {
    (void)g_barrier_params;
    sanvp::ParamValues pv = params_from(opt->sets);
    const auto lat = sanvp::barrier::LatencyParams::from_params(pv, "");
    if (flit->parsed()) return flit_command(*opt, pv);
    if (exp->parsed()) return experiment_command(*opt, lat);
    fmt::print("{}", sanvp::barrier::btin_example_report(lat));
    return 0;
  };
}};

}  // namespace
