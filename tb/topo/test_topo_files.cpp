// Every malformed-file class yields its message with file:line:column and the key.
#include <catch2/catch.hpp>

#include "tb/topo/topo_test_util.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {
std::string err(const std::string& text) { return error_of([&] { load_text(text); }); }
}  // namespace

TEST_CASE("a valid explicit topology loads with its parameter overrides") {
  Topology t = load_text(R"(name: pair
switches:
  - {id: 0, ports: 8, params: {rd: 120ns}}
  - {id: 1, ports: 4}
nodes:
  - {id: 0, switch: 0, port: 0}
  - {id: 1, switch: 1, port: 3, params: {link.ld: 20ns}}
links:
  - {a: "0:4", b: [1, 0], params: {ld: 50ns}}
)");
  REQUIRE(t.name == "pair");
  REQUIRE(t.switches[1].ports == 4);
  REQUIRE(t.switches[0].params.at("rd") == "120ns");
  REQUIRE(t.nodes[1].params.at("ld") == "20ns");
  REQUIRE(t.links[0].sw_b == 1);
  REQUIRE(t.links[0].port_b == 0);
  ParamValues pv;
  t.apply_params(pv);
  REQUIRE(pv.time("sw0.p4.out", "link", "ld") == 50 * kNs);
  REQUIRE(pv.time("sw1.p0.out", "link", "ld") == 50 * kNs);
  REQUIRE(pv.time("n1.out", "link", "ld") == 20 * kNs);
  REQUIRE(pv.time("sw0", "switch", "rd") == 120 * kNs);
}

TEST_CASE("unknown key") {
  REQUIRE(err("switches: 2\nlinks:\n  - {a: \"0:1\", b: \"1:1\", lenght: 3}\n") ==
          "t.yaml:3:26: links[0].lenght: unknown key 'lenght' (expected one of: a, b, params)");
  REQUIRE_THAT(err("switchs: 2\n"), Catch::StartsWith("t.yaml:1:1: switchs: unknown key 'switchs'"));
  REQUIRE_THAT(err("switches:\n  - {id: 0, params: {rdd: 5ns}}\n"),
               Catch::StartsWith("t.yaml:2:22: switches[0].params.rdd: unknown parameter 'rdd'"));
}

TEST_CASE("wrong type") {
  REQUIRE(err("switches:\n  - {id: 0, ports: eight}\n") == "t.yaml:2:20: switches[0].ports: expected an integer, got 'eight'");
  REQUIRE(err("switches: 1\nnodes: {id: 0}\n") == "t.yaml:2:8: nodes: expected a list, got a map");
  REQUIRE(err("switches: 2\nlinks:\n  - {a: \"0:x\", b: \"1:1\"}\n") ==
          "t.yaml:3:9: links[0].a: expected switch:port such as \"3:5\", got '0:x'");
  REQUIRE_THAT(err("switches:\n  - {id: 0, params: {rd: fast}}\n"), Catch::StartsWith("t.yaml:2:26: switches[0].params.rd: bad value 'fast'"));
}

TEST_CASE("port used twice") {
  REQUIRE(err("switches: 2\nnodes:\n  - {switch: 0, port: 1}\nlinks:\n  - {a: \"0:1\", b: \"1:1\"}\n") ==
          "t.yaml:5:9: links[0].a: port 1 of switch 0 is already used by node 0 (t.yaml:3:5: nodes[0])");
}

TEST_CASE("port beyond the switch's port count") {
  REQUIRE(err("switches:\n  - {ports: 4}\nnodes:\n  - {switch: 0, port: 4}\n") ==
          "t.yaml:4:23: nodes[0].port: port 4 does not exist on switch 0 (4 ports: 0..3)");
}

TEST_CASE("node attached twice") {
  REQUIRE(err("switches: 1\nnodes:\n  - {id: 0, switch: 0, port: 0}\n  - {id: 0, switch: 0, port: 1}\n") ==
          "t.yaml:4:10: nodes[1].id: node 0 attached twice: here to switch 0 port 1, first at t.yaml:3:10 to switch 0 port 0");
}

TEST_CASE("dangling link") {
  REQUIRE(err("switches: 2\nlinks:\n  - {a: \"0:1\", b: \"5:1\"}\n") ==
          "t.yaml:3:19: links[0].b: switch 5 does not exist (switches are 0..1)");
  REQUIRE(err("switches: 1\nnodes:\n  - {switch: 3, port: 0}\n") ==
          "t.yaml:3:14: nodes[0].switch: switch 3 does not exist (switches are 0..0)");
}

TEST_CASE("disconnected network") {
  REQUIRE(err("switches: 4\nlinks:\n  - {a: \"0:1\", b: \"1:1\"}\n  - {a: \"2:1\", b: \"3:1\"}\n") ==
          "t.yaml:3:3: links: network is disconnected: switches 2, 3 cannot reach switch 0");
}

TEST_CASE("duplicate id") {
  REQUIRE(err("switches:\n  - {id: 0}\n  - {id: 0}\n") == "t.yaml:3:10: switches[1].id: duplicate switch id 0 (first declared at t.yaml:2:10)");
  REQUIRE_THAT(err("switches:\n  - {id: 0}\n  - {id: 2}\n"), Catch::Contains("switch 1 is missing"));
}

TEST_CASE("infeasible generator request") {
  REQUIRE_THAT(err("generate:\n  type: irregular\n  switches: 75\n  nodes: 256\n  f: 0.5\n"),
               Catch::StartsWith("t.yaml:5:3: generate.f: f=0.5 too small to connect 75 switches"));
  REQUIRE(err("generate: {type: irregular, switches: 10, nodes: 10, seeds: 3}\n") ==
          "t.yaml:1:54: generate.seeds: unknown key 'seeds' for generator 'irregular' (expected one of: switches, nodes, ports, f, seed)");
  REQUIRE(err("generate: {type: torus}\n") ==
          "t.yaml:1:18: generate.type: unknown generator 'torus' (available: single, star, tree, irregular, mesh, tdma-a, tdma-b)");
  REQUIRE_THAT(err("generate: {type: mesh}\nlinks: []\n"), Catch::StartsWith("t.yaml:2:8: links: cannot be combined with generate"));
}

TEST_CASE("YAML syntax errors carry the parser's position") {
  REQUIRE_THAT(err("switches: [1, 2\n"), Catch::StartsWith("t.yaml:"));
  REQUIRE_THAT(err("switches: [1, 2\n"), Catch::Contains("YAML syntax error"));
}
