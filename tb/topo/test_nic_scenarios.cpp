// Scenario files with NIC nodes: hosts with LANai-like NICs running the messaging firmware and
// built-in host applications, among test endpoints (platform/host/nic_nodes.hpp).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "platform/scenario/scenario.hpp"
#include "tb/topo/scenario_test_util.hpp"

using namespace sanvp;
using namespace sanvp::test;
namespace fs = std::filesystem;

namespace {

std::string example() { return source_dir() + "/platform/scenarios/nic-pingpong-chain.yaml"; }

fs::path temp_dir(const std::string& tag) { return test::temp_dir("nicscen", tag); }

const nlohmann::json& find_node(const nlohmann::json& list, const std::string& node) {
  for (const auto& e : list)
    if (e["node"] == node) return e;
  FAIL("no entry for " << node);
  return list;
}

// Every NIC's route table read back from its SRAM equals the scenario's route table.
void require_routes_from_scenario(const nlohmann::json& results, const Scenario& s) {
  const RouteTable rt = scenario_routes(s);
  for (const auto& n : results["nics"]) {
    const int src = std::stoi(n["node"].get<std::string>().substr(1));
    for (const auto& [dst, bytes] : n["routes"].items()) {
      const auto want = rt.vec(src, std::stoi(dst.substr(1)));
      REQUIRE(bytes.get<std::vector<int>>() == std::vector<int>(want.begin(), want.end()));
    }
  }
}

}  // namespace

TEST_CASE("the NIC example scenario runs and its pingpong reports intact messages") {
  ParamValues pv;
  Scenario s;
  const RunResult res = run_file(example(), {}, pv, &s);
  REQUIRE(res.status == RunStatus::Completed);
  REQUIRE(res.exit_code == 0);
  const auto& r = res.report["results"];
  for (const char* n : {"n0", "n7"}) {
    const auto& a = find_node(r["apps"], n);
    REQUIRE(a["app"] == "pingpong");
    REQUIRE(a["finished"] == true);
    REQUIRE(a["messages_received"] == 10);
    REQUIRE(a["bytes_received"] == 10 * 4096);
    REQUIRE(a["messages_sent"] == 10);
    REQUIRE(a["bad_messages"] == 0);
    // Each NIC received exactly its peer's messages (one 4 KiB fragment each): no test packet.
    REQUIRE(find_node(r["nics"], n)["packets_received"] == 10);
  }
  REQUIRE(find_node(r["apps"], "n0")["latency"]["count"] == 10);  // the side that sends first measures
  const auto& sink = find_node(r["apps"], "n6");
  REQUIRE(sink["messages_received"] == 16);
  REQUIRE(sink["bad_messages"] == 0);
  REQUIRE(sink["latency"]["count"] == 16);
  // Background traffic ran among the test endpoints only, and all of it arrived.
  REQUIRE(r["packets_created"].get<int>() > 20);
  REQUIRE(r["packets_delivered"] == r["packets_created"]);
  std::uint64_t recv = 0;
  for (const auto& n : r["nodes"]) {
    const std::string id = n["node"];
    REQUIRE((id == "n2" || id == "n3" || id == "n4" || id == "n5"));
    recv += n["recv_packets"].get<std::uint64_t>();
  }
  REQUIRE(recv == r["packets_created"].get<std::uint64_t>());
  // The NICs hold the scenario's (up*/down*) routes to each other.
  REQUIRE(find_node(r["nics"], "n0")["routes"]["n7"] == nlohmann::json{7, 7, 2});
  require_routes_from_scenario(r, s);
}

TEST_CASE("the NIC example scenario gives byte-identical reports and waves with the same seed") {
  const fs::path d = temp_dir("det");
  for (const char* k : {"a", "b"}) {
    const std::string cmd = fmt::format("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 '{}' run '{}' --report '{}' --vcd '{}' > /dev/null", sanvp_bin(),
                                        example(), (d / fmt::format("{}.json", k)).string(), (d / fmt::format("{}.vcd", k)).string());
    REQUIRE(std::system(cmd.c_str()) == 0);
  }
  REQUIRE(slurp(d / "a.json") == slurp(d / "b.json"));
  const std::string vcd = slurp(d / "a.vcd");
  REQUIRE(vcd == slurp(d / "b.vcd"));
  REQUIRE(vcd.find("$scope module n0 $end") != std::string::npos);  // the NIC's signals
  REQUIRE(vcd.find("$var wire 32 , pc $end") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("an unknown host application name is reported with file line and column") {
  const fs::path d = temp_dir("app");
  const std::string f = (d / "s.yaml").string();
  auto load = [&](const std::string& nodes) {
    write(f, "topology: {generate: {type: single, ports: 4}}\nnodes:\n" + nodes);
    ParamValues pv;
    Scenario s = load_scenario(f, {}, pv);
    scenario_run_spec(s);
  };
  REQUIRE(error_of([&] { load("  - {id: 0, firmware: builtin:msg, host: {app: pingpog, args: [1, 64, 2]}}\n"); }) ==
          f + ":3:48: nodes[0].host.app: unknown host application 'pingpog' (known: idle, pingpong, sink, stream)");
  // Arguments are checked where they are written, and applications must fit together.
  REQUIRE(error_of([&] {
            load("  - {id: 0, firmware: builtin:msg, host: {app: pingpong, args: [1, 64, 2]}}\n"
                 "  - {id: 1, firmware: builtin:msg, host: {app: pingpong, args: [0, 64x, 2]}}\n");
          }) == f + ":4:68: nodes[1].host.args[1]: pingpong: SIZE '64x' is not a message size in 1..64M bytes");
  REQUIRE(error_of([&] { load("  - {id: 0, firmware: builtin:msg, host: {app: stream, args: [2, 64, 2]}}\n"); }) ==
          f + ":3:63: nodes[0].host.args[0]: stream: PEER n2 has no NIC (give it a firmware image): messages go between NIC nodes");
  REQUIRE(error_of([&] {
            load("  - {id: 0, firmware: builtin:msg, host: {app: stream, args: [1, 64, 2]}}\n"
                 "  - {id: 1, firmware: builtin:msg, host: {app: idle}}\n");
          }) == f + ":3:63: nodes[0].host.args[0]: stream: PEER n1 must run sink to receive the stream (it runs idle)");
  REQUIRE(error_of([&] { load("  - {id: 0, firmware: builtin:nope}\n"); }) ==
          f + ":3:23: nodes[0].firmware: unknown built-in firmware 'nope' (known: builtin:msg, builtin:fbs, builtin:grim, builtin:tdma)");
  fs::remove_all(d);
}

TEST_CASE("NIC nodes on a generated irregular network exchange messages over up-down routes") {
  const fs::path d = temp_dir("irr");
  const std::string f = (d / "s.yaml").string();
  write(f,
        "name: irregular-nics\n"
        "seed: 3\n"
        "duration: 100us\n"
        "topology: {generate: {type: irregular, switches: 10, nodes: 20, ports: 8, f: 0.75, seed: 4}}\n"
        "traffic: {pattern: permutation, load: 0.2, payload: 128}\n"
        "nodes:\n"
        "  - {id: 11, firmware: builtin:msg, host: {app: pingpong, args: [5, 1K, 4]}}\n"
        "  - {id: 5, firmware: builtin:msg, host: {app: pingpong, args: [11, 1K, 4]}}\n"
        "  - {id: 0, firmware: builtin:msg, host: {app: stream, args: [14, 6000, 5]}}\n"
        "  - {id: 9, firmware: builtin:msg, host: {app: stream, args: [14, 100, 7]}}\n"
        "  - {id: 14, firmware: builtin:msg, host: {app: sink}}\n"
        "  - {id: 19, firmware: builtin:msg, host: {app: idle}}\n");
  ParamValues pv;
  Scenario s;
  const RunResult res = run_file(f, {}, pv, &s);
  REQUIRE(res.status == RunStatus::Completed);
  REQUIRE(res.exit_code == 0);
  const auto& r = res.report["results"];
  REQUIRE(res.report["scenario"]["routing"]["algorithm"] == "up-down");
  REQUIRE(res.report["scenario"]["routing"]["dependency_graph_acyclic"] == true);
  for (const auto& a : r["apps"]) {
    REQUIRE(a["finished"] == true);
    REQUIRE(a["bad_messages"] == 0);
  }
  REQUIRE(find_node(r["apps"], "n5")["messages_received"] == 4);
  REQUIRE(find_node(r["apps"], "n11")["messages_received"] == 4);
  REQUIRE(find_node(r["apps"], "n14")["messages_received"] == 12);
  REQUIRE(find_node(r["apps"], "n14")["bytes_received"] == 5 * 6000 + 7 * 100);
  REQUIRE(r["packets_delivered"] == r["packets_created"]);
  REQUIRE(r["nodes"].size() == 14);  // test endpoints only
  // The firmware's route tables are the up*/down* ones; on this network n11's up*/down* route
  // to its pingpong peer n5 is not the path shortest-path routing picks, so the test tells the
  // two apart.
  require_routes_from_scenario(r, s);
  const RouteTable ud = updown_routes(s.topo), sp = shortest_routes(s.topo);
  REQUIRE(ud.vec(11, 5) != sp.vec(11, 5));
  fs::remove_all(d);
}

TEST_CASE("a NIC firmware fault stops the run with the fault report") {
  const fs::path d = temp_dir("fault");
  const std::string f = (d / "s.yaml").string();
  write(f, fmt::format("topology: {{generate: {{type: single, ports: 4}}}}\nduration: 50us\ntraffic: {{load: 0.1}}\n"
                       "nodes:\n  - {{id: 2, firmware: '{}'}}\n",
                       FAULT_FW));
  ParamValues pv;
  const RunResult res = run_file(f, {}, pv);
  REQUIRE(res.status == RunStatus::Fault);
  REQUIRE(res.exit_code == kExitSimError);
  const std::string fault = res.report["results"]["fault"];
  REQUIRE_THAT(fault, Catch::StartsWith("n2: "));
  REQUIRE(res.report["status"] == "fault");
  REQUIRE_THAT(res.report["results"]["nic_state"].get<std::string>(), Catch::Contains("n2 (") && Catch::Contains("faulted") &&
                                                                              Catch::Contains("about to store outside every device"));
  fs::remove_all(d);
}

TEST_CASE("host applications unfinished at sim.limit stop the run with what each NIC was doing") {
  ParamValues pv;
  const RunResult res = run_file(example(), {"sim.limit=1ms"}, pv);
  REQUIRE(res.status == RunStatus::Limit);
  REQUIRE(res.exit_code == kExitSimError);
  REQUIRE(res.report["status"] == "limit");
  const auto& r = res.report["results"];
  REQUIRE(find_node(r["apps"], "n0")["finished"] == false);
  REQUIRE_THAT(find_node(r["apps"], "n0")["phase"].get<std::string>(), Catch::StartsWith("round trip"));
  const std::string state = r["nic_state"];
  for (const char* n : {"n0 (", "n7 (", "n1 (", "n6 ("}) REQUIRE_THAT(state, Catch::Contains(n));
  REQUIRE_THAT(state, Catch::Contains("host app pingpong: round trip"));
}
