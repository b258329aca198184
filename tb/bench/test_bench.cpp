// `sanvp bench --quick`: every case and figure in the JSON with positive values, the seed, host
// and build; --only selects; a bad --against, a bad --only and a failing child give a clear
// error and a non-zero exit. Checks behaviour and counts only, never a time threshold.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Out {
  int rc = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

fs::path fresh() {
  static int n = 0;
  const fs::path d = fs::temp_directory_path() / fmt::format("sanvp-bench-{}-{}", ::getpid(), n++);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Runs `sanvp bench ARGS` with stdout and stderr in files of `d`.
Out bench(const fs::path& d, const std::string& args) {
  const std::string cmd = fmt::format("'{}' bench {} > '{}/out' 2> '{}/err'", SANVP_BIN, args, d.string(), d.string());
  const int st = std::system(cmd.c_str());
  return Out{WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(d / "out"), slurp(d / "err")};
}

json load(const fs::path& p) {
  std::ifstream f(p);
  REQUIRE(f);
  return json::parse(f);
}

const std::vector<std::string> kCases = {"switch8", "switch16", "mesh4x4", "mesh16", "mesh64", "mesh256", "mesh1024",
                                         "mesh4x4_10ms", "mesh4x4_100ms", "iss", "btin_experiment", "btin_flit"};

double figure(const json& doc, const std::string& c, const std::string& key) {
  for (const auto& f : doc.at("figures"))
    if (f.at("case") == c && f.at("key") == key) return f.at("value").get<double>();
  FAIL_CHECK("no figure " << key << " of case " << c);
  return 0;
}

}  // namespace

TEST_CASE("bench --quick --json: every case and figure, positive, with seed, host and build") {
  ::alarm(120);
  const fs::path d = fresh();
  const Out r = bench(d, fmt::format("--quick --json '{}/b.json'", d.string()));
  INFO(r.err);
  REQUIRE(r.rc == 0);
  const json doc = load(d / "b.json");
  CHECK(doc.at("seed") == 1);
  CHECK(doc.at("quick") == true);
  CHECK(doc.at("build").at("build_type").get<std::string>() != "");
  CHECK(doc.at("build").at("compiler").get<std::string>() != "");
  CHECK(doc.at("host").at("cpu").get<std::string>() != "");
  CHECK(doc.at("host").at("cores").get<int>() > 0);
  CHECK(doc.at("date").get<std::string>().size() == 20);  // 2026-01-01T00:00:00Z
  CHECK(doc.at("errors").empty());
  REQUIRE(doc.at("cases").size() == kCases.size());
  for (const auto& name : kCases) {
    INFO(name);
    const json& c = doc.at("cases").at(name).at("this");
    REQUIRE(c.at("ok") == true);
    const json& b = c.at("best");
    CHECK(b.at("seed") == 1);
    CHECK(b.at("cpu_s").get<double>() > 0);
    CHECK(b.at("wall_s").get<double>() > 0);
    CHECK(b.at("peak_rss_kb").get<double>() > 0);
    CHECK(b.at("counts").at("sim_cpu_s").get<double>() > 0);
    CHECK(r.out.find(name) != std::string::npos);  // a table line
  }
  for (const auto& f : doc.at("figures")) CHECK(f.at("value").get<double>() > 0);
  for (const char* c : {"switch8", "switch16", "mesh4x4"})
    for (const char* k : {"flit_hops_per_cpu_s", "crossings_per_cpu_s", "switch_flits_per_cpu_s"}) figure(doc, c, k);
  for (const char* c : {"mesh16", "mesh64", "mesh256", "mesh1024"}) figure(doc, c, "cpu_ns_per_crossing");
  for (const char* c : {"mesh64", "mesh256", "mesh1024"}) figure(doc, c, "crossing_cost_vs_mesh16");
  for (const char* c : {"mesh4x4", "mesh4x4_10ms", "mesh4x4_100ms"}) figure(doc, c, "cpu_s_per_sim_ms");
  for (const char* c : {"mesh4x4_10ms", "mesh4x4_100ms"}) figure(doc, c, "cpu_per_ms_vs_mesh4x4");
  figure(doc, "iss", "mips_per_cpu_s");
  for (const char* c : {"btin_experiment", "btin_flit"}) {
    figure(doc, c, "wall_s");
    figure(doc, c, "peak_rss_mib");
  }
  CHECK(r.out.find("seed 1") != std::string::npos);

  // Crossings from flit counts: one per packet on a single switch; a mesh with one node per
  // switch crosses at least two switches per packet.
  auto counts = [&](const char* c) { return doc.at("cases").at(c).at("this").at("best").at("counts"); };
  for (const char* c : {"switch8", "switch16"}) {
    INFO(c);
    CHECK(counts(c).at("packets").get<long>() > 0);
    CHECK(counts(c).at("crossings") == counts(c).at("packets"));
  }
  for (const char* c : {"mesh4x4", "mesh1024"}) {
    INFO(c);
    CHECK(counts(c).at("packets").get<long>() > 0);
    CHECK(counts(c).at("crossings").get<long>() >= 2 * counts(c).at("packets").get<long>());
  }
  CHECK(counts("iss").at("instructions").get<long>() > 0);
  CHECK(counts("iss").at("console").get<std::string>().rfind("checksum ", 0) == 0);
}

TEST_CASE("bench --only selects cases, and --seed reaches every child") {
  ::alarm(60);
  const fs::path d = fresh();
  const Out r = bench(d, fmt::format("--quick --only '^switch(8|16)$' --seed 7 --json '{}/b.json'", d.string()));
  INFO(r.err);
  REQUIRE(r.rc == 0);
  const json doc = load(d / "b.json");
  std::set<std::string> names;
  for (const auto& [k, v] : doc.at("cases").items()) names.insert(k);
  CHECK(names == std::set<std::string>{"switch8", "switch16"});
  CHECK(doc.at("seed") == 7);
  CHECK(doc.at("cases").at("switch8").at("this").at("best").at("seed") == 7);
  CHECK(r.out.find("mesh4x4") == std::string::npos);
  CHECK(r.out.find("seed 7") != std::string::npos);
  // One run: nothing to spread over.
  CHECK(r.out.find("spread") == std::string::npos);
  for (const auto& f : doc.at("figures")) CHECK_FALSE(f.contains("runs"));
}

TEST_CASE("bench --against another binary: other and ratio columns, --repeat runs each N times") {
  ::alarm(60);
  const fs::path d = fresh();
  const Out r = bench(d, fmt::format("--quick --only '^switch8$' --repeat 2 --against '{}' --json '{}/b.json'", SANVP_BIN, d.string()));
  INFO(r.err);
  REQUIRE(r.rc == 0);
  const json doc = load(d / "b.json");
  const json& c = doc.at("cases").at("switch8");
  CHECK(c.at("this").at("runs").size() == 2);
  CHECK(c.at("other").at("runs").size() == 2);
  CHECK(doc.at("other_build").at("build_type") == doc.at("build").at("build_type"));
  // Same binary, same seed: the same counts.
  CHECK(c.at("this").at("best").at("counts").at("flit_hops") == c.at("other").at("best").at("counts").at("flit_hops"));
  // Every per-case figure with the range of its runs around the best, and of the run-by-run
  // ratios around the ratio of the bests (the best is the extreme of its runs).
  for (const auto& f : doc.at("figures")) {
    INFO(f.dump());
    const double v = f.at("value").get<double>(), ratio = f.at("ratio").get<double>();
    CHECK(f.at("other").get<double>() > 0);
    CHECK(ratio > 0);
    const json& runs = f.at("runs");
    CHECK(runs.at("count") == 2);
    CHECK(runs.at("min").get<double>() <= runs.at("max").get<double>());
    CHECK(v == (f.at("higher_is_better").get<bool>() ? runs.at("max") : runs.at("min")).get<double>());
    const json& rr = f.at("ratio_runs");
    CHECK(rr.at("count") == 2);
    CHECK(rr.at("min").get<double>() <= ratio * (1 + 1e-12));
    CHECK(ratio <= rr.at("max").get<double>() * (1 + 1e-12));
  }
  CHECK(r.out.find("ratio") != std::string::npos);
  CHECK(r.out.find("spread") != std::string::npos);
  CHECK(r.out.find("ratio range") != std::string::npos);
}

TEST_CASE("bench --repeat runs round by round over the cases, the table stays in case order") {
  ::alarm(60);
  const fs::path d = fresh();
  const Out r = bench(d, "--quick --only '^switch(8|16)$' --repeat 2");
  INFO(r.err);
  REQUIRE(r.rc == 0);
  // A slow phase of the machine falls on several cases, not on every run of one.
  const auto a = r.err.find("switch8 (this, run 1/2)"), b = r.err.find("switch16 (this, run 1/2)"),
             c = r.err.find("switch8 (this, run 2/2)"), e = r.err.find("switch16 (this, run 2/2)");
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  REQUIRE(c != std::string::npos);
  REQUIRE(e != std::string::npos);
  CHECK(a < b);
  CHECK(b < c);
  CHECK(c < e);
  CHECK(r.out.find("switch8 ") < r.out.find("switch16 "));
}

TEST_CASE("bench: bad options are refused with the option named, exit 2") {
  ::alarm(30);
  const fs::path d = fresh();
  Out r = bench(d, "--quick --against /nonexistent/sanvp");
  CHECK(r.rc == 2);
  CHECK(r.err.find("--against: '/nonexistent/sanvp' does not exist") != std::string::npos);
  r = bench(d, fmt::format("--quick --against '{}'", d.string()));  // a folder
  CHECK(r.rc == 2);
  CHECK(r.err.find("is not an executable file") != std::string::npos);
  r = bench(d, "--quick --only '('");
  CHECK(r.rc == 2);
  CHECK(r.err.find("--only: '(' is not a valid regular expression") != std::string::npos);
  r = bench(d, "--quick --only nosuchcase");
  CHECK(r.rc == 2);
  CHECK(r.err.find("matches no case") != std::string::npos);
  r = bench(d, "--case nosuchcase");
  CHECK(r.rc == 2);
  CHECK(r.err.find("--case: no case 'nosuchcase'") != std::string::npos);
}

TEST_CASE("bench: a failing child is reported per case with its stderr, the others still run, exit 3") {
  ::alarm(60);
  const fs::path d = fresh();
  // A stand-in "other binary" that fails: its stderr must reach the report.
  const fs::path fake = d / "fake-sanvp";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\necho 'fake: no such command' >&2\nexit 5\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  Out r = bench(d, fmt::format("--quick --only '^switch(8|16)$' --against '{}' --json '{}/b.json'", fake.string(), d.string()));
  CHECK(r.rc == 3);
  CHECK(r.err.find("bench case failed") != std::string::npos);
  CHECK(r.err.find("--case switch8: exit code 5") != std::string::npos);
  CHECK(r.err.find("--case switch16: exit code 5") != std::string::npos);
  CHECK(r.err.find("fake: no such command") != std::string::npos);
  const json doc = load(d / "b.json");
  CHECK(doc.at("errors").size() == 2);
  CHECK(doc.at("cases").at("switch8").at("this").at("ok") == true);
  CHECK(doc.at("cases").at("switch8").at("other").at("ok") == false);
  // A child that exits 0 without a result line is a failure too.
  r = bench(d, "--quick --only '^switch8$' --against /bin/echo");
  CHECK(r.rc == 3);
  CHECK(r.err.find("no result line on stdout") != std::string::npos);
}
