// ISS speed: runs the sort+CRC firmware under `sanvp fw run --stats` with DMI on/off and two
// quantum sizes and prints host MIPS: per wall-clock second of the simulation (as `--stats`
// reports it) and per CPU second of the whole child process (getrusage), which stays
// meaningful when other jobs share the machine's cores.
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <regex>
#include <string>
#include <sys/resource.h>

namespace {

double children_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Run {
  double mips = 0, cpu_mips = 0;
  std::string insns, cycles, simtime;
};

Run run(const std::string& cmd) {
  Run r;
  const double cpu0 = children_cpu_seconds();
  FILE* p = popen((cmd + " 2>&1 >/dev/null").c_str(), "r");
  if (!p) return r;
  std::string out;
  char buf[512];
  while (fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  const double cpu = children_cpu_seconds() - cpu0;
  std::smatch m;
  if (std::regex_search(out, m, std::regex(R"(firmware: (\d+) instructions, (\d+) cycles, (\S+) simulated, ([0-9.]+) MIPS host)"))) {
    r.insns = m[1];
    r.cycles = m[2];
    r.simtime = m[3];
    r.mips = std::stod(m[4]);
    r.cpu_mips = cpu > 0 ? std::stod(m[1]) / cpu / 1e6 : 0.0;
  } else {
    fmt::print(stderr, "unexpected output from '{}':\n{}\n", cmd, out);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string sanvp = argc > 1 ? argv[1] : SANVP_BIN;
  const std::string image = argc > 2 ? argv[2] : BENCH_IMAGE;
  fmt::print("ISS benchmark: {} (sort + CRC-32, compute bound)\n", image);
  fmt::print("{:<6} {:<9} {:>12} {:>12} {:>16} {:>11} {:>10}\n", "dmi", "quantum", "instructions", "cycles", "sim time", "MIPS(wall)", "MIPS(cpu)");
  for (const char* dmi : {"true", "false"})
    for (const char* q : {"1us", "100us"}) {
      const auto r = run(fmt::format("{} fw run {} --stats --set nic.core.dmi={} --set sim.quantum={}", sanvp, image, dmi, q));
      fmt::print("{:<6} {:<9} {:>12} {:>12} {:>16} {:>11.1f} {:>10.1f}\n", dmi, q, r.insns, r.cycles, r.simtime, r.mips, r.cpu_mips);
    }
  return 0;
}
