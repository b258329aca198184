// ISS speed: runs the sort+CRC firmware under `sanvp fw run --stats` with DMI on/off and two
// quantum sizes and prints host MIPS (instructions retired per wall-clock second of the run).
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <regex>
#include <string>

namespace {

struct Run {
  double mips = 0;
  std::string insns, cycles, simtime;
};

Run run(const std::string& cmd) {
  Run r;
  FILE* p = popen((cmd + " 2>&1 >/dev/null").c_str(), "r");
  if (!p) return r;
  std::string out;
  char buf[512];
  while (fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  std::smatch m;
  if (std::regex_search(out, m, std::regex(R"(firmware: (\d+) instructions, (\d+) cycles, (\S+) simulated, ([0-9.]+) MIPS host)"))) {
    r.insns = m[1];
    r.cycles = m[2];
    r.simtime = m[3];
    r.mips = std::stod(m[4]);
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
  fmt::print("{:<6} {:<9} {:>12} {:>12} {:>14} {:>9}\n", "dmi", "quantum", "instructions", "cycles", "sim time", "MIPS");
  for (const char* dmi : {"true", "false"})
    for (const char* q : {"1us", "100us"}) {
      const auto r = run(fmt::format("{} fw run {} --stats --set nic.core.dmi={} --set nic.core.quantum={}", sanvp, image, dmi, q));
      fmt::print("{:<6} {:<9} {:>12} {:>12} {:>14} {:>9.1f}\n", dmi, q, r.insns, r.cycles, r.simtime, r.mips);
    }
  return 0;
}
