// NIC benchmark: wall time and peak RSS of (a) the ping-pong scenario, (b) the bandwidth
// scenario (two hosts, one switch, 4 B .. 1 MiB), (c) a 64-node network of idle NICs for
// 10 ms simulated and (d) 1024 idle NICs (lazily backed SRAM), with simulated time and ISS
// instructions. Each case runs in a forked child
// (a SystemC kernel cannot be restarted in one process).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <systemc>
#include <unistd.h>

#include "platform/host/msg_bench.hpp"
#include "platform/host/nic_network.hpp"

using namespace sanvp;

namespace {

const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
double peak_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

int msg_case(const char* title, bool pingpong) {
  ParamValues pv;
  host::MsgBenchOptions o;
  o.sizes = host::default_msg_sizes();
  o.pingpong = pingpong;
  o.bandwidth = !pingpong;
  const fw::Image im = fw::Image::load(MSG_FW);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = host::run_msg_bench(pv, im, o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t insns = 0;
  for (const auto& n : r.report["nics"]) insns += n["instructions"].get<std::uint64_t>();
  fmt::print("{:<44} {:>8.3f} s wall {:>8.3f} s CPU  peak RSS {:>6.1f} MiB  simulated {:>10}  {:>9} ISS instructions  {:>10} flit-hops\n",
             title, wall, cpu_seconds(), peak_mib(), format_time(r.report["simulated_time_ps"].get<Time>()), insns,
             r.report["flit_hops"].get<std::uint64_t>());
  std::fflush(stdout);
  return r.exit_code;
}

int idle_case(const char* title, int hosts, int switches, int ports, Time duration) {
  ParamValues pv;
  const fw::Image im = fw::Image::load(MSG_FW);  // waits for its host, asleep
  host::NicNetworkSpec spec;
  spec.hosts = hosts;
  spec.switches = switches;
  spec.ports = ports;
  spec.check = false;  // measure the model, not the monitor
  const auto t0 = std::chrono::steady_clock::now();
  auto* net = new host::NicNetwork(pv, 1, im, spec);
  sc_core::sc_start(sc_core::sc_time::from_value(duration));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t insns = 0;
  for (int i = 0; i < net->hosts(); ++i) insns += net->nic(i).core().state().instret;
  fmt::print("{:<44} {:>8.3f} s wall {:>8.3f} s CPU  peak RSS {:>6.1f} MiB  simulated {:>10}  {:>9} ISS instructions (boot only)\n", title, wall,
             cpu_seconds(), peak_mib(), format_time(sc_core::sc_time_stamp().value()), insns);
  std::fflush(stdout);
  return 0;
}

}  // namespace

int sc_main(int, char*[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  fmt::print("sanvp NIC benchmark (Release build, messaging firmware, default parameters)\n");
  std::fflush(stdout);
  int rc = 0;
  for (int c = 0; c < 4; ++c) {
    pid_t pid = fork();
    if (pid == 0) {
      if (c == 0) _exit(msg_case("(a) ping-pong, 1 switch, 4 B .. 1 MiB", true));
      if (c == 1) _exit(msg_case("(b) bandwidth, 1 switch, 4 B .. 1 MiB", false));
      if (c == 2) _exit(idle_case("(c) 64 idle NICs, 8 switches, 10 ms", 64, 8, 16, 10 * kMs));
      _exit(idle_case("(d) 1024 idle NICs (1 MiB SRAM each), 20 switches, 1 ms", 1024, 20, 64, 1 * kMs));
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) rc = 1;
  }
  return rc;
}
