// ISS speed: runs the sort+CRC firmware under `sanvp fw run --stats` with DMI on/off and
// several quantum sizes (the default, 10 us, among them) and prints host MIPS: per wall-clock
// second of the simulation (as `--stats` reports it) and per CPU second of the whole child
// process (getrusage), which stays meaningful when other jobs share the machine's cores. Each
// configuration runs `repeats` times (third argument, default 3); the best run is printed.
//   bench_iss [SANVP [IMAGE [REPEATS]]]
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <regex>
#include <string>
#include <utility>
#include <algorithm>
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
  const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  fmt::print("ISS benchmark: {} (sort + CRC-32, compute bound), best of {}\n", image, repeats);
  fmt::print("{:<6} {:<9} {:>12} {:>12} {:>16} {:>11} {:>10}\n", "dmi", "quantum", "instructions", "cycles", "sim time", "MIPS(wall)", "MIPS(cpu)");
  const std::pair<const char*, const char*> configs[] = {{"true", "1us"},   {"true", "10us"},   {"true", "100us"},
                                                         {"true", "1ms"},   {"false", "10us"}, {"false", "100us"}};
  for (const auto& [dmi, q] : configs) {
    Run best;
    for (int i = 0; i < repeats; ++i) {
      const auto r = run(fmt::format("{} fw run {} --stats --set nic.core.dmi={} --set sim.quantum={}", sanvp, image, dmi, q));
      if (r.cpu_mips > best.cpu_mips) best = r;
    }
    fmt::print("{:<6} {:<9} {:>12} {:>12} {:>16} {:>11.1f} {:>10.1f}\n", dmi, q, best.insns, best.cycles, best.simtime, best.mips, best.cpu_mips);
  }
  return 0;
}
