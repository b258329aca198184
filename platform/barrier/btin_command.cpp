// `sanvp btin`: the BTIN barrier on the paper's example and the analytical model, with the
// btin.* parameters (see `sanvp params`); `sanvp btin experiment`: the paper's Section 5
// experiments on random irregular networks, written as CSV and JSON.
#include <fmt/format.h>

#include <fstream>

#include "hw/barrier/barrier_unit_tl.hpp"
#include "platform/barrier/btin_report.hpp"
#include "platform/barrier/experiment.hpp"
#include "platform/barrier/flit_run.hpp"
#include "platform/cli/commands.hpp"
#include "platform/core/error.hpp"

namespace {

// Odr-use the parameter declarations so `sanvp params` lists them.
const void* const g_barrier_params[] = {&sanvp::barrier::BarrierUnitTl::params, &sanvp::barrier::BarrierModel::params};

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

void write_file(const std::string& path, const std::string& text) {
  std::ofstream o(path, std::ios::binary);
  if (!o) throw sanvp::UserError(fmt::format("cannot write '{}'", path));
  o << text;
}

sanvp::CommandRegistrar g_btin{"btin", [](CLI::App& app) -> sanvp::CommandRun {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("btin", "BTIN barrier: group setup on the paper's example and the latency model");
  sub->add_option("--set", opt->sets, "override a parameter: key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root)");
  auto* exp = sub->add_subcommand("experiment", "BTIN vs unicast vs multicast on random irregular networks (paper Section 5)");
  auto& c = opt->exp;
  exp->add_option("--nodes", c.nodes, "nodes p")->capture_default_str();
  exp->add_option("--switches", c.switches, "switches q")->capture_default_str();
  exp->add_option("--ports", c.ports, "ports per switch k")->capture_default_str();
  exp->add_option("--f", c.f, "connectivity f")->capture_default_str();
  exp->add_option("--sizes", opt->sizes, "group sizes (default 2,4,...,256 up to the node count)")->delimiter(',');
  exp->add_option("--runs", c.runs, "runs per group size (a new network and group each)")->capture_default_str();
  exp->add_option("--seed", c.seed, "seed: run r uses network seed+r")->capture_default_str();
  exp->add_option("--registers", c.registers, "barrier registers per switch")->capture_default_str();
  exp->add_option("--set", opt->sets, "override a parameter: key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root)");
  exp->add_option("--csv", opt->csv, "write one row per run to this CSV file");
  exp->add_option("--json", opt->json, "write the per-size summary to this JSON file");
  auto* flit = sub->add_subcommand("flit", "BTIN barriers in the flit-level simulator on a random irregular network, vs the model");
  auto& fc = opt->flit;
  flit->add_option("--nodes", fc.nodes, "nodes p")->capture_default_str();
  flit->add_option("--switches", fc.switches, "switches q")->capture_default_str();
  flit->add_option("--ports", fc.ports, "ports per switch k")->capture_default_str();
  flit->add_option("--f", fc.f, "connectivity f")->capture_default_str();
  flit->add_option("--sizes", opt->flit_sizes, "group sizes (default 2,16,64,256)")->delimiter(',');
  flit->add_option("--groups", fc.groups, "groups per size")->capture_default_str();
  flit->add_option("--seed", fc.seed, "network seed")->capture_default_str();
  flit->add_option("--set", opt->sets, "override a parameter: key=value (link.*, switch.*, barrier.*, btin.t_s)");
  flit->add_option("--json", opt->flit_json, "write the samples to this JSON file");
  flit->add_flag("--setup-once", [opt](std::int64_t) { opt->flit.every_member = false; },
                 "compute each group's setup once instead of by every member (same registers, faster)");
  return [opt, exp, flit]() -> int {
    (void)g_barrier_params;
    sanvp::ParamValues pv = params_from(opt->sets);
    const auto lat = sanvp::barrier::LatencyParams::from_params(pv, "");
    if (flit->parsed()) {
      auto fc = opt->flit;
      if (!opt->flit_sizes.empty()) fc.sizes = opt->flit_sizes;
      const auto r = sanvp::barrier::run_flit_barriers(pv, fc);
      fmt::print("{}", sanvp::barrier::flit_table(fc, r));
      if (!opt->flit_json.empty()) write_file(opt->flit_json, sanvp::barrier::flit_json(fc, r).dump(1) + "\n");
      return r.errors.empty() ? 0 : 1;
    }
    if (!exp->parsed()) {
      fmt::print("{}", sanvp::barrier::btin_example_report(lat));
      return 0;
    }
    auto c = opt->exp;
    c.lat = lat;
    if (!opt->sizes.empty()) {
      c.sizes = opt->sizes;
    } else {
      c.sizes.clear();
      for (int n = 2; n <= std::min(256, c.nodes); n *= 2) c.sizes.push_back(n);
    }
    const auto r = sanvp::barrier::run_experiment(c);
    // A refused configuration still gets its JSON (with "error"), so a script can tabulate it.
    if (!opt->json.empty()) write_file(opt->json, sanvp::barrier::experiment_json(r).dump(1) + "\n");
    if (!r.config_error.empty()) {
      fmt::print(stderr, "error: {}\n", r.config_error);
      return sanvp::kExitUserError;
    }
    fmt::print("{}", sanvp::barrier::experiment_table(r));
    if (!opt->csv.empty()) write_file(opt->csv, sanvp::barrier::experiment_csv(r));
    return 0;
  };
}};

}  // namespace
