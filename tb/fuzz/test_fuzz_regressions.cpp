// Regression tests for the bugs the fuzz targets found (tb/fuzz/regressions/ holds the inputs;
// the fuzz smoke tests replay them too).
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/base/utf8.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/topo/topo_loader.hpp"
#include "platform/topo/yaml_util.hpp"

using namespace sanvp;

namespace {
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("utf8_error_at finds the first malformed byte") {
  REQUIRE(utf8_error_at("") == std::string::npos);
  REQUIRE(utf8_error_at("plain ascii") == std::string::npos);
  REQUIRE(utf8_error_at("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == std::string::npos);  // é € 😀
  REQUIRE(utf8_error_at("caf\xe9") == 3);                  // Latin-1 é
  REQUIRE(utf8_error_at("ab\xc0\xaf") == 2);               // overlong '/'
  REQUIRE(utf8_error_at("\xed\xa0\x80") == 0);             // surrogate U+D800
  REQUIRE(utf8_error_at("\xf4\x90\x80\x80") == 0);         // above U+10FFFF
  REQUIRE(utf8_error_at("x\xe2\x82") == 1);                // truncated sequence
  REQUIRE(utf8_error_at("\x80") == 0);                     // lone continuation byte
}

// fuzz_topology / fuzz_scenario: a name with a byte that is not UTF-8 loaded fine and then made
// the JSON report (nlohmann::json::dump) throw type_error 316: an uncaught exception, exit 134.
TEST_CASE("a YAML scalar that is not UTF-8 is an error at its position") {
  REQUIRE(error_of([] { YamlDoc::load_string("switches: 1\nname: fbep\xf9\n", "t.yaml"); }) ==
          "t.yaml:2:7: invalid UTF-8 (byte 0xf9 at offset 4 of this value); YAML files are UTF-8 text");
  REQUIRE(error_of([] { YamlDoc::load_string("a: [x, {\"k\xff\": 1}]\n", "t.yaml"); }).rfind("t.yaml:1:9: invalid UTF-8", 0) == 0);
  REQUIRE(error_of([] { YamlDoc::load_string("name: caf\xc3\xa9\n", "t.yaml"); }) == "(no error)");
}

// fuzz_params: a --set value with invalid UTF-8 was stored and broke the report's "effective"
// configuration the same way.
TEST_CASE("a --set item that is not UTF-8 is refused") {
  ParamValues pv;
  REQUIRE(error_of([&] { apply_sets(pv, {"traffic.sizes=64:3,1024:\x9b"}); }) ==
          "--set: parameter 'traffic.sizes': not valid UTF-8 text");
  REQUIRE_FALSE(pv.has("traffic.sizes"));
}

TEST_CASE("a scenario --set override that is not UTF-8 is refused") {
  const std::string file = "/tmp/sanvp_fuzz_regress_" + std::to_string(getpid()) + ".yaml";
  std::ofstream(file) << "topology: {generate: {type: single, ports: 4}}\n";
  ParamValues pv;
  const std::string e = error_of([&] { load_scenario(file, {"name=caf\xe9"}, pv); });
  std::remove(file.c_str());
  REQUIRE(e == "--set: 'name=caf\xe9' is not valid UTF-8 text");
}

// fuzz_topology: Topology::to_yaml wrote names and per-element string values unquoted (and the
// description quoted without escapes), so `topo gen -o` / `topo show` output could read back
// differently ("name: 'x\n" gave the name "x " and wrote `name: x `) or not at all.
TEST_CASE("to_yaml output reads back to the same topology") {
  auto load = [](const std::string& text) {
    const YAML::Node root = YamlDoc::load_string(text, "t.yaml");
    return load_topology(root, YamlDoc("t.yaml"), "");
  };
  const Topology t = load(
      "name: 'bs-tree \"x\" # y: z '\n"
      "description: \"a \\\"quoted\\\" \\\\ back\\tslash\"\n"
      "switches: [{id: 0, ports: 4, params: {arbiter: 'round robin: #1'}}]\n"
      "nodes: ['0:0', '0:1']\n");
  REQUIRE(t.name == "bs-tree \"x\" # y: z ");
  const Topology again = load(t.to_yaml());
  REQUIRE(again.name == t.name);
  REQUIRE(again.description == "a \"quoted\" \\ back\tslash");
  REQUIRE(again.switches[0].params.at("arbiter") == "round robin: #1");
  REQUIRE(again.to_yaml() == t.to_yaml());
  REQUIRE(load("name: null-model\nswitches: 1\n").to_yaml().rfind("name: null-model\n", 0) == 0);  // plain stays plain
}
