// Scenario files through run_simulation: the forced cyclic route set deadlocks and the watchdog
// explains it; --set, relative paths, effective configuration; traffic patterns.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "platform/scenario/scenario.hpp"
#include "tb/topo/scenario_test_util.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
using namespace sanvp::test;
namespace fs = std::filesystem;

namespace {

std::string scenario_path(const std::string& name) { return source_dir() + "/platform/scenarios/" + name; }

fs::path temp_dir(const std::string& tag) { return test::temp_dir("topo", tag); }

}  // namespace

TEST_CASE("forced cyclic routes deadlock under load and the watchdog reports the cycle") {
  ::alarm(60);  // a watchdog that failed to fire must fail this test, not hang CI
  ParamValues pv;
  RunResult res = run_file(scenario_path("ring-deadlock.yaml"), {}, pv);
  REQUIRE(res.status == RunStatus::Hung);
  REQUIRE(res.exit_code == kExitSimError);
  const auto& hang = res.report["results"]["hang"];
  // Four worms, node i -> node i+2: each head waits at switch i+1 (entered by port 2) for the
  // clockwise output p1, held by the worm that node i+1 injected there.
  REQUIRE(hang["worms"].size() == 4);
  std::map<std::uint32_t, std::uint32_t> held_by;
  for (const auto& w : hang["worms"]) {
    const int src = w["src"].get<int>();
    REQUIRE(w["dst"].get<int>() == (src + 2) % 4);
    REQUIRE(w["head"] == fmt::format("sw{}.p2", (src + 1) % 4));
    REQUIRE(w["waits_for"] == fmt::format("sw{}.p1", (src + 1) % 4));
    REQUIRE(w["tail"] == fmt::format("n{}", src));  // long worms: the source is still sending
    held_by[w["packet"].get<std::uint32_t>()] = w["held_by"].get<std::uint32_t>();
  }
  const auto cycle = hang["cycle"].get<std::vector<std::uint32_t>>();
  REQUIRE(cycle.size() == 4);
  for (std::size_t i = 0; i < cycle.size(); ++i) REQUIRE(held_by.at(cycle[i]) == cycle[(i + 1) % cycle.size()]);
  // The watchdog fired sim.watchdog after the last flit moved, long before the drain limit.
  REQUIRE(res.report["simulated_ps"].get<Time>() < 20 * kUs);
}

TEST_CASE("a deadlock that outlasts the drain before the watchdog fires is a hang, not a warning") {
  ::alarm(60);
  ParamValues pv;
  // The scenario drains for 100 us: the drain ends long before a 1 ms watchdog could fire.
  RunResult res = run_file(scenario_path("ring-deadlock.yaml"), {"sim.watchdog=1ms"}, pv);
  REQUIRE(res.status == RunStatus::Hung);
  REQUIRE(res.exit_code == kExitSimError);
  const auto& hang = res.report["results"]["hang"];
  REQUIRE(hang["cycle"].size() == 4);
  // No flit moved for far longer than any wait: ld + rd + sd + ld + 2 fc + cp at the defaults.
  REQUIRE(hang["still_for_ps"].get<Time>() > 17000 + 100000 + 2000 + 17000 + 2 * 3260 + 6250);
  REQUIRE(res.report["simulated_ps"].get<Time>() < 1 * kMs);
}

TEST_CASE("a watchdog no longer than the longest legitimate standstill is refused, with the bound") {
  ParamValues pv;
  try {
    run_file(scenario_path("single-switch-uniform.yaml"), {"sim.watchdog=148770ps"}, pv);
    FAIL("accepted");
  } catch (const UserError& e) {
    // ld + rd + sd + ld + 2 fc + cp = 17 + 102 + 17 + 6.52 + 6.25 ns at the defaults.
    REQUIRE_THAT(e.what(), Catch::Contains("sim.watchdog=148.77ns is not longer than") && Catch::Contains("148.77ns (ld 17ns"));
  }
  ParamValues ok;
  REQUIRE(run_file(scenario_path("single-switch-uniform.yaml"), {"sim.watchdog=148771ps", "duration=5us"}, ok).exit_code == 0);
}

TEST_CASE("links longer than the default watchdog need a longer one, and then do not hang") {
  ::alarm(60);
  // 200 us links: a flit is on the wire for longer than the default watchdog (100 us).
  const std::vector<std::string> far{"link.ld=200us", "fc.bl=200000", "fc.kg=70000", "fc.ks=130000", "duration=20us"};
  ParamValues pv;
  REQUIRE_THROWS_AS(run_file(scenario_path("single-switch-uniform.yaml"), far, pv), UserError);
  std::vector<std::string> with = far;
  with.push_back("sim.watchdog=1ms");
  ParamValues pv2;
  const RunResult res = run_file(scenario_path("single-switch-uniform.yaml"), with, pv2);
  REQUIRE(res.status == RunStatus::Completed);
  REQUIRE(res.exit_code == 0);
}

TEST_CASE("a sink that stops consuming hangs the network without a cycle, and the watchdog says so") {
  ::alarm(60);
  ParamValues pv;
  Scenario s = load_scenario(scenario_path("single-switch-uniform.yaml"),
                             {"duration=20us", "sim.watchdog=5us", "traffic.pattern=permutation", "traffic.shift=1",
                              "traffic.payload=1024"}, pv);
  RunSpec spec = scenario_run_spec(s);
  spec.traffic = [&](Network& net) {
    TrafficConfig tc = TrafficConfig::from_params(pv, "");
    tc.stop = 20 * kUs;
    net.start_traffic(tc);
    net.node(1).pause_receive(0, kNever);  // n0 -> n1 can never finish
  };
  RunOptions opt = test::checked_run_options();
  RunResult res = run_simulation(pv, opt, spec);
  REQUIRE(res.status == RunStatus::Hung);
  REQUIRE(res.exit_code == kExitSimError);
  const auto& hang = res.report["results"]["hang"];
  REQUIRE_FALSE(hang.contains("cycle"));
  REQUIRE(hang["worms"].size() == 1);
  const auto& w = hang["worms"][0];
  REQUIRE(w["src"] == 0);
  REQUIRE(w["dst"] == 1);
  REQUIRE(w["head"] == "sw0.p1");  // streaming out of the port of n1
  REQUIRE(w["tail"] == "n0");
  REQUIRE_FALSE(w.contains("waits_for"));
}

TEST_CASE("the same cyclic routes are refused when the deadlock check is on") {
  ParamValues pv;
  Scenario s = load_scenario(scenario_path("ring-deadlock.yaml"), {"routing.check_deadlock=true"}, pv);
  const std::string e = error_of([&] { scenario_run_spec(s); });
  REQUIRE_THAT(e, Catch::Contains("ring-deadlock.yaml:17:3: routing: routes can deadlock"));
  REQUIRE_THAT(e, Catch::Contains("cycle of 4 channels"));
}

TEST_CASE("up*/down* routes on the same ring under the same load complete") {
  ParamValues pv;
  RunResult res = run_file(scenario_path("ring-deadlock.yaml"), {"routing.routes=[]", "duration=10us"}, pv);
  REQUIRE(res.status == RunStatus::Completed);
  REQUIRE(res.exit_code == 0);
  const auto& r = res.report["results"];
  REQUIRE(r["packets_delivered"] == r["packets_created"]);
  REQUIRE(r["packets_created"].get<int>() >= 4);
  REQUIRE(res.report["scenario"]["routing"]["dependency_graph_acyclic"] == true);
}

TEST_CASE("sanvp run on the deadlocking scenario exits 3 with the cycle on stderr") {
  ::alarm(60);
  const std::string bin = sanvp_bin();
  REQUIRE(fs::exists(bin));
  const fs::path d = temp_dir("cli");
  const std::string cmd = fmt::format("{} run {} --report {} > {} 2> {}", bin, scenario_path("ring-deadlock.yaml"),
                                      (d / "r.json").string(), (d / "out.txt").string(), (d / "err.txt").string());
  const int st = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(st));
  REQUIRE(WEXITSTATUS(st) == kExitSimError);
  std::ifstream f(d / "err.txt");
  const std::string err((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE_THAT(err, Catch::Contains("error: network hung"));
  REQUIRE_THAT(err, Catch::Contains("blocked worms (4):"));
  REQUIRE_THAT(err, Catch::Contains("deadlock: dependency cycle of 4 worms:"));
  REQUIRE_THAT(err, Catch::Contains("head at sw1.p2 waits for output sw1.p1 (to sw2)"));
  fs::remove_all(d);
}

TEST_CASE("relative paths resolve against the scenario folder, --set and the effective config") {
  const fs::path d = temp_dir("rel");
  fs::create_directories(d / "topos");
  write(d / "topos" / "pair.yaml", "switches: 2\nnodes: [\"0:0\", \"1:0\"]\nlinks:\n  - {a: \"0:1\", b: \"1:1\", params: {ld: 30ns}}\n");
  write(d / "s.yaml", "name: rel\nseed: 9\nduration: 10us\ntopology: topos/pair.yaml\ntraffic: {load: 0.3, payload: 64}\n");
  const fs::path cwd = fs::current_path();
  fs::current_path(fs::temp_directory_path());  // not the scenario folder
  ParamValues pv;
  RunResult res = run_file((d / "s.yaml").string(), {"traffic.load=0.2", "switch.rd=150ns"}, pv);
  fs::current_path(cwd);
  REQUIRE(res.status == RunStatus::Completed);
  const auto& sc = res.report["scenario"];
  REQUIRE(sc["name"] == "rel");
  REQUIRE(sc["effective"]["traffic"]["load"] == 0.2);
  REQUIRE(sc["overrides"] == nlohmann::json{"traffic.load=0.2", "switch.rd=150ns"});
  REQUIRE(res.report["seed"] == 9);
  REQUIRE(pv.time("sw0", "switch", "rd") == 150 * kNs);
  REQUIRE(pv.time("sw0.p1.out", "link", "ld") == 30 * kNs);  // per-link override from the topology file
  fs::remove_all(d);
}

TEST_CASE("scenario mistakes are reported with position and key") {
  const fs::path d = temp_dir("err");
  write(d / "fw.elf", "not really firmware");
  auto load = [&](const std::string& text, std::vector<std::string> sets = {}) {
    write(d / "s.yaml", text);
    ParamValues pv;
    Scenario s = load_scenario((d / "s.yaml").string(), sets, pv);
    scenario_run_spec(s);
  };
  const std::string f = (d / "s.yaml").string();
  REQUIRE(error_of([&] { load(""); }) ==
          f + ": scenario: the file is empty (a scenario file is a map with at least a 'topology' section)");
  REQUIRE(error_of([&] { load("- a\n- b\n"); }) == f + ":1:1: scenario: a scenario file is a map with at least a 'topology' section");
  REQUIRE(error_of([&] { load("topology: nothere.yaml\n"); }) ==
          fmt::format("{}:1:11: topology: topology file '{}' not found", f, (d / "nothere.yaml").string()));
  // A name the file system refuses (longer than NAME_MAX) is bad input with the reason, not a crash.
  const std::string too_long(300, 'x');
  REQUIRE(error_of([&] { load("topology: " + too_long + "\n"); }) ==
          fmt::format("{}:1:11: topology: topology file '{}' cannot be used: File name too long", f, (d / too_long).string()));
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\nnodes:\n  - {id: 0, firmware: " + too_long + "}\n"); }) ==
          fmt::format("{}:3:23: nodes[0].firmware: firmware image '{}' cannot be used: File name too long", f, (d / too_long).string()));
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\ntrafic: {load: 0.1}\n"); }).rfind(f + ":2:1: trafic: unknown key 'trafic'", 0) == 0);
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\ntraffic: {lod: 0.1}\n"); }).rfind(f + ":2:11: traffic.lod: unknown key 'lod'", 0) == 0);
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\nduration: soon\n"); }) ==
          f + ":2:11: duration: expected a time such as 10us or 6.25ns, got 'soon'");
  REQUIRE_THAT(error_of([&] { load("topology: {generate: {type: single}}\n", {"duration=soon"}); }),
               Catch::StartsWith("--set override: duration: expected a time"));
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\nnodes:\n  - {id: 0, firmware: missing.elf}\n"); }) ==
          fmt::format("{}:3:23: nodes[0].firmware: firmware image '{}' not found", f, (d / "missing.elf").string()));
  // An existing image is accepted (it is read when the run starts); host applications are
  // registered names and need a NIC.
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\nnodes:\n  - {id: 3, firmware: fw.elf}\n"); }).empty());
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\nnodes:\n  - {id: 3, host: {app: idle}}\n"); }) ==
          f + ":3:19: nodes[0].host: a host application needs a NIC: give this node a firmware image (e.g. 'firmware: builtin:msg')");
  REQUIRE(error_of([&] { load("topology: {generate: {type: single}}\nnodes:\n  - {id: 3, firmware: fw.elf, host: {app: apps/pingpong}}\n"); }) ==
          f + ":3:43: nodes[0].host.app: unknown host application 'apps/pingpong' (known: idle, pingpong, sink, stream)");
  REQUIRE_THAT(error_of([&] { load("topology: {generate: {type: single}}\nrouting:\n  routes:\n    - {src: 0, dst: 1, route: [5]}\n"); }),
               Catch::Contains("4:7: routing.routes[0]: route [5] from n0 ends at n5, not n1"));
  fs::remove_all(d);
}

namespace {
// Simulates one 8-port switch with a node per port under the given traffic parameters and
// returns every packet record.
std::vector<PacketRecord> traffic_packets(const std::map<std::string, std::string>& traffic, Time duration = 400 * kUs) {
  ParamValues pv;
  for (const auto& [k, v] : traffic) pv.set("traffic." + k, v, "test");
  Network net(pv, 4);
  const int sw = net.add_switch(8);
  for (int p = 0; p < 8; ++p) net.add_node(sw, p);
  net.build();
  net.compute_shortest_routes();
  TrafficConfig tc = TrafficConfig::from_params(pv, "");
  tc.stop = duration;
  net.start_traffic(tc);
  sc_core::sc_start(sc_core::sc_time::from_value(duration + 200 * kUs));
  for (const auto& r : net.packets().all()) REQUIRE(r.deliveries == 1);
  const auto& all = net.packets().all();
  return all;
}
double offered_load(const std::vector<PacketRecord>& v, Time duration) {
  double flits = 0;
  for (const auto& r : v) flits += r.wire_len();
  return flits * 6250.0 / (static_cast<double>(duration) * 8);  // link.cp = 6.25 ns
}
}  // namespace

TEST_CASE("traffic: permutation sends every node to one partner, never itself") {
  const auto v = traffic_packets({{"pattern", "permutation"}, {"load", "0.2"}, {"payload", "64"}}, 50 * kUs);
  std::map<int, std::set<int>> dsts;
  for (const auto& r : v) dsts[r.src].insert(r.dst);
  REQUIRE(dsts.size() == 8);
  std::set<int> partners;
  for (const auto& [src, d] : dsts) {
    REQUIRE(d.size() == 1);
    REQUIRE(*d.begin() != src);
    partners.insert(*d.begin());
  }
  REQUIRE(partners.size() == 8);  // a permutation
}

TEST_CASE("traffic: permutation with a shift sends node i to node i+shift") {
  const auto v = traffic_packets({{"pattern", "permutation"}, {"shift", "3"}, {"load", "0.2"}}, 100 * kUs);
  REQUIRE(v.size() > 20);
  for (const auto& r : v) REQUIRE(r.dst == (r.src + 3) % 8);
}

TEST_CASE("traffic: hotspot sends its share to the hot node") {
  const auto v = traffic_packets({{"pattern", "hotspot"}, {"hotspot", "2"}, {"hotspot_fraction", "0.5"}, {"load", "0.2"}, {"payload", "64"}});
  std::size_t from_others = 0, to_hot = 0;
  for (const auto& r : v) {
    if (r.src == 2) { REQUIRE(r.dst != 2); continue; }
    ++from_others;
    to_hot += r.dst == 2;
  }
  REQUIRE(from_others > 1000);
  // P(hot) = 0.5 + 0.5 * 1/7 for the other nodes.
  REQUIRE(static_cast<double>(to_hot) / from_others == Approx(0.5 + 0.5 / 7).margin(0.04));
}

TEST_CASE("traffic: bursty creates bursts of the mean length to one destination at the offered load") {
  const Time dur = 400 * kUs;
  const auto v = traffic_packets({{"process", "bursty"}, {"burst", "4"}, {"load", "0.3"}, {"payload", "64"}}, dur);
  std::map<std::pair<int, Time>, std::vector<int>> bursts;
  for (const auto& r : v) bursts[{r.src, r.created}].push_back(r.dst);
  REQUIRE(bursts.size() > 500);
  for (const auto& [k, d] : bursts) REQUIRE(std::set<int>(d.begin(), d.end()).size() == 1);
  REQUIRE(static_cast<double>(v.size()) / bursts.size() == Approx(4.0).margin(0.5));
  REQUIRE(offered_load(v, dur) == Approx(0.3).epsilon(0.15));
}

TEST_CASE("traffic: a size mix draws payloads by weight and keeps the offered load") {
  const Time dur = 400 * kUs;
  const auto v = traffic_packets({{"sizes", "64:3,512:1"}, {"load", "0.4"}}, dur);
  std::size_t big = 0;
  for (const auto& r : v) {
    REQUIRE((r.payload == 64 || r.payload == 512));
    big += r.payload == 512;
  }
  REQUIRE(v.size() > 1000);
  REQUIRE(static_cast<double>(big) / v.size() == Approx(0.25).margin(0.04));
  REQUIRE(offered_load(v, dur) == Approx(0.4).epsilon(0.1));
  REQUIRE_THAT(error_of([] { ParamValues pv; pv.set("traffic.sizes", "4:1", "t"); TrafficConfig::from_params(pv, ""); }),
               Catch::Contains("payload 4 out of range"));
}
