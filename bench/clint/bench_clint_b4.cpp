// Benchmark: simulated cycles per wall second of the 16-host scheduled bulk channel (B4) at
// load 0.5, 10^7 cycles of 4 ns (the paper's run length), LCF arbiter. Prints the figure.
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <systemc>

#include "platform/clint/experiment.hpp"

// No SystemC banner in the printed figure (static init runs before the kernel prints it).
const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  using namespace sanvp;
  using namespace sanvp::clint;
  ParamValues pv;
  const char* cycles = argc > 1 ? argv[1] : "10000000";
  pv.set("clint.cycles", cycles, "argv");
  ExperimentSetup setup = experiment_setup(pv, 1);
  double wall = 0;
  nlohmann::json r = run_experiment(pv, setup, {ExperimentPoint{"B4", 0.5, false}}, &wall);
  const auto& p = r["points"][0];
  fmt::print("bench_clint_b4: 16 hosts, B4 (lcf), load 0.5, seed 1, {} cycles of 4 ns: {:.3f} s wall, {:.3g} simulated cycles per wall second "
             "(mean latency {:.3f} us, {} breqs delivered, {} slots)\n",
             setup.cycles, wall, static_cast<double>(setup.cycles) / wall, p["mean_latency_us"].get<double>(),
             p["delivered"].get<std::uint64_t>(), p["slots"].get<std::uint64_t>());
  return 0;
}
