// Fabric benchmark: simulated flit-hops per wall-clock second and peak RSS.
//  (a) the default scenario (8-port switch, 8 nodes, uniform load 0.5, 1 ms)
//  (b) a 16-port switch at offered load 0.5 with 256-byte packets
// Each case runs in a forked child (a SystemC kernel cannot be restarted in one process).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <systemc>
#include <unistd.h>

#include "platform/sim/run.hpp"

using namespace sanvp;

namespace {

const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

int run_case(const char* title, const std::vector<std::pair<const char*, const char*>>& sets) {
  ParamValues pv;
  for (auto [k, v] : sets) pv.set(k, v, "bench");
  RunOptions opt;
  opt.report = "";
  opt.print_summary = false;
  RunSpec spec = default_scenario(pv);
  std::uint64_t hops = 0;
  spec.on_finish = [&](Network& net) { hops = net.flit_hops(); };
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = run_simulation(pv, opt, spec);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  // CPU time too: on a shared machine wall time also counts the other processes' turns.
  const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  fmt::print("{:<40} {:>10} flit-hops {:>7.3f} s wall {:>6.2f} M flit-hops/s (per CPU s: {:>6.2f} M)  peak RSS {:>5.1f} MiB  simulated {}\n",
             title, hops, wall, static_cast<double>(hops) / wall / 1e6, static_cast<double>(hops) / cpu / 1e6,
             static_cast<double>(ru.ru_maxrss) / 1024.0, format_time(r.report["simulated_ps"].get<Time>()));
  std::fflush(stdout);
  return r.exit_code;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  const char* dur = argc > 1 ? argv[1] : "1ms";
  struct Case { const char* title; std::vector<std::pair<const char*, const char*>> sets; };
  const std::vector<Case> cases = {
      {"(a) default: 8 ports, load 0.5, 256 B", {{"sim.duration", dur}}},
      {"(b) 16 ports, load 0.5, 256 B", {{"sim.duration", dur}, {"switch.ports", "16"}, {"traffic.load", "0.5"}, {"traffic.payload", "256"}}},
  };
  fmt::print("sanvp fabric benchmark (one core, Release build; simulated duration {} per case)\n", dur);
  std::fflush(stdout);
  int rc = 0;
  for (const auto& c : cases) {
    pid_t pid = fork();
    if (pid == 0) _exit(run_case(c.title, c.sets));
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) rc = 1;
  }
  return rc;
}
