// `sanvp bench`: every speed figure of issue 18 in one table and JSON (docs/bench.md).
//   sanvp bench [--only REGEX] [--quick] [--json FILE] [--against OTHER_SANVP] [--repeat N]
// Each case runs in a child process (`sanvp bench --case NAME`, a fresh SystemC kernel).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "platform/bench/bench_child.hpp"
#include "platform/bench/bench_report.hpp"
#include "platform/bench/bench_runner.hpp"
#include "platform/cli/commands.hpp"
#include "platform/sim/report.hpp"
#include "platform/sweep/process_pool.hpp"

namespace sanvp::bench {
namespace {

struct Options : BenchOptions {
  std::string child_case;  // --case: run this one case here (the child side)
};

Options& opts() {
  static Options o;
  return o;
}

int run_child(const Options& o) {
  const BenchCase* c = find_case(o.child_case);
  if (!c) throw UserError(fmt::format("--case: no case '{}'", o.child_case));
  fmt::print("{}\n", run_case(*c, o.quick, o.seed).dump());
  std::fflush(stdout);
  return 0;
}

int run_bench() {
  const Options& o = opts();
  if (!o.child_case.empty()) return run_child(o);
  Report rep;
  const auto json = rep.output(o.json, "--json");
  if (!o.against.empty()) check_binary(o.against, "--against");
  const auto cases = select_cases(o.only);
  const BenchReport r = make_report(run_cases(cases, o, self_exe("bench")), o);
  fmt::print("{}", r.table);
  std::fflush(stdout);
  rep.write_json(json, r.doc, 2);
  for (const auto& e : r.errors) rep.error("bench case failed: " + e);
  return rep.exit_code();
}

const CommandRegistrar reg{"bench", [](CLI::App& app) -> CommandRun {
  auto& o = opts();
  auto* b = app.add_subcommand("bench", "speed figures: fabric flit-hops and crossings per CPU s, scaling with size and run length, "
                                        "ISS MIPS, BTIN experiment time and memory (each case in a child process)");
  b->add_option("--only", o.only, "run only the cases whose name matches this regular expression");
  b->add_flag("--quick", o.quick, "tiny versions of every case (for tests)");
  b->add_option("--json", o.json, "also write the figures, runs and build/host information as JSON here");
  b->add_option("--against", o.against, "also run every case with this other sanvp binary (alternating); adds other and ratio columns");
  b->add_option("--repeat", o.repeat, "run every case N times and keep the best")->check(CLI::Range(1, 100))->capture_default_str();
  add_seed_option(b, o.seed, "random seed of every simulated case")->capture_default_str();
  b->add_option("--case", o.child_case, "run one case in this process and print its counts as one JSON line (what the parent runs)")
      ->group("");
  return run_bench;
}};

}  // namespace
}  // namespace sanvp::bench
