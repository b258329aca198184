// `sanvp btin`: the BTIN barrier on the paper's example and the analytical model, with the
// btin.* parameters (see `sanvp params`).
#include <fmt/format.h>

#include "hw/barrier/barrier_unit_tl.hpp"
#include "platform/barrier/btin_report.hpp"
#include "platform/cli/commands.hpp"
#include "platform/core/error.hpp"

namespace {

// Odr-use the parameter declarations so `sanvp params` lists them.
const void* const g_barrier_params[] = {&sanvp::barrier::BarrierUnitTl::params, &sanvp::barrier::BarrierModel::params};

struct Options { std::vector<std::string> sets; };

sanvp::CommandRegistrar g_btin{"btin", [](CLI::App& app) -> sanvp::CommandRun {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("btin", "BTIN barrier: group setup on the paper's example and the latency model");
  sub->add_option("--set", opt->sets, "override a parameter: key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root)");
  return [opt]() -> int {
    (void)g_barrier_params;
    sanvp::ParamValues pv;
    for (const auto& s : opt->sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0) throw sanvp::UserError(fmt::format("--set: '{}' is not key=value", s));
      pv.set(s.substr(0, eq), s.substr(eq + 1), "--set");
    }
    fmt::print("{}", sanvp::barrier::btin_example_report(sanvp::barrier::LatencyParams::from_params(pv, "")));
    return 0;
  };
}};

}  // namespace
