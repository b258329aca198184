// bench_btin: figures of the BTIN barrier: the paper's running example and analytical model,
// then wall time and peak memory (each measurement in its own child process, so ru_maxrss is
// that measurement's peak) of
//   - one barrier in the flit-level simulator on a random 1024-node / 300-switch network
//     (real switches with BarrierUnits; group creation by configuration packets, then the
//     barrier), with every member running Setup_Register and with the setup computed once;
//   - the full 100-run experiment at one group size (n = 256) on 1024 / 300 (functional BTIN
//     network + baselines), and on 256 / 75.
//   bench_btin [--set btin.t_s=10us ...] [--quick]     (--quick: skips the 1024-member runs)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <systemc>  // declares sc_main extern "C"

#include "platform/barrier/btin_report.hpp"
#include "platform/barrier/experiment.hpp"
#include "platform/barrier/flit_run.hpp"
#include "hw/base/error.hpp"

namespace {

// Runs `fn` in a child process; prints its wall time and peak resident memory.
void measure(const std::string& what, const std::function<std::string()>& fn) {
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::string out;
    int rc = 0;
    try {
      out = fn();
    } catch (const std::exception& e) {
      out = std::string("error: ") + e.what() + "\n";
      rc = 1;
    }
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
    _exit(rc);
  }
  int status = 0;
  struct rusage ru {};
  wait4(pid, &status, 0, &ru);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("  %-72s wall %8.2f s   peak RSS %7.1f MiB%s\n", what.c_str(), wall, static_cast<double>(ru.ru_maxrss) / 1024.0,
              WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "   FAILED");
  std::fflush(stdout);
}

}  // namespace

// sc_main: the binary links SystemC (through sanvp_core), whose library owns main().
int sc_main(int argc, char** argv) {
  CLI::App app{"BTIN barrier figures"};
  std::vector<std::string> sets;
  bool quick = false;
  app.add_option("--set", sets, "parameter override key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root, link.*, barrier.*)");
  app.add_flag("--quick", quick, "skip the 1024-member flit-level runs");
  CLI11_PARSE(app, argc, argv);
  try {
    sanvp::ParamValues pv;
    for (const auto& s : sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos) throw sanvp::UserError("--set needs key=value: " + s);
      pv.set(s.substr(0, eq), s.substr(eq + 1), "--set");
    }
    const auto lat = sanvp::barrier::LatencyParams::from_params(pv, "");
    std::cout << sanvp::barrier::btin_example_report(lat);
    std::cout << "\nwall time and peak memory (seed 1, each in its own process):\n";
    using sanvp::barrier::FlitRunConfig;
    auto flit = [&](int members, bool every) {
      return [&pv, members, every]() {
        FlitRunConfig c;
        c.nodes = 1024;
        c.switches = 300;
        c.sizes = {members};
        c.groups = 1;
        c.every_member = every;
        const auto r = sanvp::barrier::run_flit_barriers(pv, c);
        if (!r.errors.empty()) throw sanvp::SimError(r.errors.front());
        const auto& s = r.samples.at(0);
        char b[256];
        std::snprintf(b, sizeof b, "    height %d, setup %.3f us, barrier %.4f us (closed form %.4f us); network+routes %.2f s\n",
                      s.height, static_cast<double>(s.setup) / sanvp::kUs, static_cast<double>(s.flit) / sanvp::kUs,
                      static_cast<double>(s.closed) / sanvp::kUs, r.build_s);
        return std::string(b);
      };
    };
    measure("flit-level, 1024/300, one barrier of 256 members, setup computed once", flit(256, false));
    if (!quick) {
      measure("flit-level, 1024/300, one barrier of 1024 members, setup computed once", flit(1024, false));
      measure("flit-level, 1024/300, one barrier of 1024 members, every member's Setup_Register", flit(1024, true));
    }
    auto exp = [&lat](int nodes, int switches) {
      return [&lat, nodes, switches]() {
        sanvp::barrier::ExperimentConfig c;
        c.nodes = nodes;
        c.switches = switches;
        c.sizes = {256};
        c.runs = 100;
        c.lat = lat;
        const auto r = sanvp::barrier::run_experiment(c);
        const auto& s = r.summary.at(0);
        char b[256];
        std::snprintf(b, sizeof b, "    n=256: BTIN %.2f us, multicast %.2f us, unicast %.2f us (means of 100 runs)\n", s.btin_us.mean,
                      s.multicast_us.mean, s.unicast_us.mean);
        return std::string(b);
      };
    };
    measure("experiment, 1024/300, 100 runs at n=256 (100 networks generated)", exp(1024, 300));
    measure("experiment, 256/75, 100 runs at n=256", exp(256, 75));
  } catch (const sanvp::UserError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return sanvp::kExitUserError;
  }
  return 0;
}
