// Instructions per call of the firmware's integer helpers (firmware/runtime/arith.cpp): runs one
// image per case (arith_fw.cpp) under `sanvp fw run --fw-profile-file` and counts the
// instructions and cycles the core retired inside the helpers (every profile row except the
// benchmark's own `main` and `bench::` functions), minus those of case 0 (same setup, no
// operation), divided by the number of operations. The caller's call sequence (4 instructions)
// is not included. Prints figures only; "before" is the bit-serial runtime this replaced, and
// "ratio" is instructions now / before.
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

constexpr int kN = 2000;  // operations per case (arith_fw.cpp)

struct Case {
  int id;
  const char* what;
  const char* helper;
  double before, before_cycles;  // per call with the bit-serial helpers (measured at commit 9d21b96)
};

const Case kCases[] = {
    {1, "u32 * u32, random", "__mulsi3", 509.6, 543.6},
    {2, "u32 * u32, one operand < 256", "__mulsi3", 318.2, 340.2},
    {3, "u32 / u32, random", "__udivsi3", 30.2, 34.9},
    {4, "i32 / i32, random", "__divsi3", 38.4, 43.1},
    {5, "u32 % u32, random", "__umodsi3", 24.7, 28.9},
    {6, "i32 % i32, random", "__modsi3", 34.8, 39.0},
    {7, "u32 / d, d in 1..255", "__udivsi3", 318.0, 345.9},
    {8, "u32 % d, d in 1..255", "__umodsi3", 242.3, 269.2},
    {9, "u64 * u64, random", "__muldi3", 1522.2, 1616.3},
    {10, "(u64)u32 * u32, random", "__muldi3", 1020.9, 1087.0},
    {11, "u64 / u64, divisor < 2^32", "__udivdi3", 905.5, 941.4},
    {12, "i64 / i64, random", "__divdi3", 89.8, 94.9},
    {13, "u64 / u64, both < 2^32", "__udivdi3", 63.0, 68.2},
};

struct Count {
  double insns = 0, cycles = 0;
  bool ok = false;
};

// Instructions and cycles retired outside the benchmark's own functions.
Count helper_count(const std::string& sanvp, const std::string& image) {
  Count c;
  char tmpl[] = "/tmp/bench_arith_XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) return c;
  close(fd);
  const std::string cmd = fmt::format("{} fw run {} --fw-profile-file {} >/dev/null 2>&1", sanvp, image, tmpl);
  const int rc = std::system(cmd.c_str());
  std::ifstream f(tmpl);
  std::stringstream ss;
  ss << f.rdbuf();
  std::remove(tmpl);
  if (rc != 0) {
    fmt::print(stderr, "'{}' failed ({})\n", cmd, rc);
    return c;
  }
  static const std::regex row(R"(^\s*[0-9.]+%\s+(\d+)\s+(\d+)\s+\S+\s\s(.+)$)");
  std::string line;
  while (std::getline(ss, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const std::string name = m[3];
    if (name == "main()" || name == "main" || name.rfind("bench::", 0) == 0) continue;
    c.cycles += std::stod(m[1]);
    c.insns += std::stod(m[2]);
    c.ok = true;
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string sanvp = argc > 1 ? argv[1] : SANVP_BIN;
  const std::string dir = argc > 2 ? argv[2] : IMAGE_DIR;
  auto image = [&](int id) { return fmt::format("{}/bench_fw_arith_{}.img", dir, id); };
  const Count base = helper_count(sanvp, image(0));
  if (!base.ok) return 1;
  fmt::print("Integer helpers: instructions (and core cycles) per call, {} calls per case, inside the helper\n", kN);
  fmt::print("{:<32} {:<10} {:>13} {:>13} {:>13} {:>13} {:>7}\n", "operation", "helper", "insns before", "insns now", "cycles before",
             "cycles now", "ratio");
  for (const auto& k : kCases) {
    const Count c = helper_count(sanvp, image(k.id));
    if (!c.ok) return 1;
    const double insns = (c.insns - base.insns) / kN, cycles = (c.cycles - base.cycles) / kN;
    fmt::print("{:<32} {:<10} {:>13.1f} {:>13.1f} {:>13.1f} {:>13.1f} {:>7.2f}\n", k.what, k.helper, k.before, insns, k.before_cycles,
               cycles, insns / k.before);
  }
  return 0;
}
