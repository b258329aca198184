// Lookahead (hw/base/lookahead.hpp): forwarding several flits of a worm per activation must not
// change anything. Each contended scenario runs twice through the sanvp binary, with the
// lookahead and without it (SANVP_NO_LOOKAHEAD=1); the reports (wall-clock fields removed), the
// printed summaries and the waves of a few traced ports must be byte-identical. The traced
// ports send per flit; every other link of the run forwards ahead.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "tb/firmware/run_util.hpp"

using sanvp::test::Proc;

namespace {

const std::string kScen = std::string(SANVP_SOURCE_DIR) + "/platform/scenarios/";

// Drops every key that holds wall-clock time (none today; kept out should one appear).
void drop_wall(nlohmann::json& j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (it.key().find("wall") != std::string::npos) it = j.erase(it);
      else drop_wall(*it++);
    }
  } else if (j.is_array()) {
    for (auto& x : j) drop_wall(x);
  }
}

// stdout without the wall-clock line.
std::string without_wall(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("wall") == std::string::npos) out += line + "\n";
  return out;
}

struct Outcome { Proc proc; std::string report, vcd; };

Outcome run_once(const std::string& args, bool lookahead) {
  // The same paths for both runs (one after the other): the summary prints them.
  const std::string base = fmt::format("/tmp/sanvp-lookahead-{}", ::getpid());
  const std::string report = base + ".json", vcd = base + ".vcd";
  std::remove(report.c_str());
  std::remove(vcd.c_str());
  Outcome o;
  o.proc = sanvp::test::run(fmt::format("{}'{}' run {} --report {} --vcd {}", lookahead ? "" : "SANVP_NO_LOOKAHEAD=1 ",
                                        SANVP_BIN, args, report, vcd));
  const std::string text = sanvp::test::slurp(report);
  if (!text.empty()) {
    nlohmann::json j = nlohmann::json::parse(text);
    drop_wall(j);
    o.report = j.dump(1);
  }
  o.vcd = sanvp::test::slurp(vcd);
  std::remove(report.c_str());
  std::remove(vcd.c_str());
  return o;
}

// The traced modules: one switch output channel, one switch input buffer, one node's buffer.
const char* kTrace = " --trace 'sw0.p1.out,sw0.p2.in,n3.*'";

void same_with_and_without(const std::string& args) {
  const Outcome off = run_once(args + kTrace, false), on = run_once(args + kTrace, true);
  INFO("sanvp run " << args << "\nstderr (lookahead off): " << off.proc.err << "\nstderr (on): " << on.proc.err);
  REQUIRE(!off.report.empty());
  CHECK(on.proc.rc == off.proc.rc);
  CHECK(on.proc.err == off.proc.err);
  CHECK(without_wall(on.proc.out) == without_wall(off.proc.out));
  CHECK(on.report == off.report);
  REQUIRE(off.vcd.size() > 1000);  // the traced signals changed
  CHECK(on.vcd == off.vcd);
}

// A scenario file written for the test (deleted at the end).
struct TempScenario {
  std::string path;
  explicit TempScenario(const std::string& text) : path(fmt::format("/tmp/sanvp-lookahead-{}.yaml", ::getpid())) {
    std::ofstream(path) << text;
  }
  ~TempScenario() { std::remove(path.c_str()); }
};

// bl/ks/kg as small as the default link timing allows: STOP and GO all the time.
const char* kSmallFc = " --set fc.bl=16 --set fc.ks=9 --set fc.kg=7";

}  // namespace

TEST_CASE("lookahead: one switch, uniform traffic near saturation") {
  same_with_and_without(kScen + "single-switch-uniform.yaml --set traffic.load=0.9 --set sim.duration=40us");
}

TEST_CASE("lookahead: one switch, uniform near saturation, small slack buffers") {
  same_with_and_without(kScen + "single-switch-uniform.yaml --set traffic.load=0.9 --set sim.duration=40us" + kSmallFc);
}

TEST_CASE("lookahead: irregular network, hotspot") {
  same_with_and_without(kScen + "irregular-hotspot.yaml --set traffic.load=0.5 --seed 3");
}

TEST_CASE("lookahead: irregular network, hotspot, small slack buffers") {
  same_with_and_without(kScen + "irregular-hotspot.yaml --set traffic.load=0.5 --seed 5" + std::string(kSmallFc));
}

TEST_CASE("lookahead: 3x3 mesh, up*/down*, uniform, mixed sizes, bursty") {
  TempScenario s(R"(name: lookahead-mesh
seed: 7
duration: 40us
topology:
  generate: {type: mesh, rows: 3, cols: 3, nodes: 2}
routing:
  algorithm: up-down
  root: 4
traffic:
  pattern: uniform
  process: bursty
  burst: 4
  load: 0.4
  sizes: "16:4,64:2,512:1"
)");
  same_with_and_without(s.path);
  same_with_and_without(s.path + kSmallFc);
}

TEST_CASE("lookahead: periodic permutation on the FBS tree") {
  same_with_and_without(kScen + "fbs-tree-permutation.yaml");
}

TEST_CASE("lookahead: a deadlocking ring (hang report at a step end)") {
  same_with_and_without(kScen + "ring-deadlock.yaml");
}

namespace {

// Flits that leave on the traced channel `scope` (e.g. "n0.out") at departures in [from, to),
// counted from its `kind` wave: kind is non-zero for one character period per flit, back to
// back while flits follow at once, so each non-idle stretch [a, b) holds flits at a, a + cp, ...
long long vcd_departures(const std::string& vcd, const std::string& scope, long long cp, long long from, long long to) {
  std::istringstream in(vcd);
  std::vector<std::string> path;
  std::string id;
  long long t = 0, start = -1, count = 0;
  auto close = [&](long long end) {
    for (long long d = start; d < end; d += cp) count += d >= from && d < to ? 1 : 0;
    start = -1;
  };
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string w, a, b, c, name;
    ls >> w;
    if (w == "$scope") { ls >> a >> b; path.push_back(b); continue; }
    if (w == "$upscope") { path.pop_back(); continue; }
    if (w == "$var") {
      ls >> a >> b >> c >> name;
      std::string p;
      for (const auto& s : path) p += (p.empty() ? "" : ".") + s;
      if (p == scope && name == "kind") id = c;
      continue;
    }
    if (!w.empty() && w[0] == '#') { t = std::stoll(w.substr(1)); continue; }
    if (w.empty() || w[0] != 'b') continue;
    ls >> a;
    if (a != id || id.empty()) continue;
    const bool idle = std::stoll(w.substr(1), nullptr, 2) == 0;
    if (!idle && start < 0) start = t;
    if (idle && start >= 0) close(t);
  }
  if (start >= 0) close(t + cp);
  return count;
}

}  // namespace

// window_utilization counts the flits that depart inside the measurement window, however far
// ahead a source sent them (a source's link-delay horizon once let flits departing just after the
// window's start count before it). Checked on every node's output against its wave.
TEST_CASE("lookahead: window utilization counts departures inside the window") {
  const Outcome o = run_once(kScen + "single-switch-uniform.yaml --trace 'n*'", true);
  INFO(o.proc.err);
  REQUIRE(!o.report.empty());
  const nlohmann::json j = nlohmann::json::parse(o.report);
  const nlohmann::json& m = j["results"]["measurement"];
  const long long from = m["window_from_ps"], to = m["window_to_ps"], cp = 6250;
  REQUIRE(j["params"]["link.cp"]["value"] == "6.25ns");
  int checked = 0;
  for (const auto& l : j["results"]["links"]) {
    const std::string name = l["link"];
    if (name.rfind("n", 0) != 0 || name.find(".out") == std::string::npos) continue;
    const double flits = l["window_utilization"].get<double>() * static_cast<double>(to - from) / static_cast<double>(cp);
    const long long waves = vcd_departures(o.vcd, name, cp, from, to);
    INFO(name << ": report " << flits << " flits, wave " << waves);
    CHECK(waves > 100);
    CHECK(std::abs(flits - static_cast<double>(waves)) < 0.5);
    ++checked;
  }
  CHECK(checked == 8);
}
