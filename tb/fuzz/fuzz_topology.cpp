// libFuzzer target: topology files (platform/topo/topo_loader.*), parsed from memory, validated,
// routed (up*/down* and shortest, small networks only), deadlock-checked and printed in every
// text form. Round trip: what to_yaml() prints must load again to the same network.
#include <cstdio>
#include <cstdlib>

#include "hw/base/error.hpp"
#include "platform/topo/deadlock.hpp"
#include "platform/topo/routing.hpp"
#include "platform/topo/topo_loader.hpp"
#include "platform/topo/yaml_util.hpp"

namespace {

sanvp::Topology load(const std::string& text, const std::string& name) {
  const YAML::Node root = sanvp::YamlDoc::load_string(text, name);
  const sanvp::YamlDoc doc(name);
  if (!root.IsMap()) doc.fail(root, "topology", "a topology file is a map with switches/nodes/links or generate");
  return sanvp::load_topology(root, doc, "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  sanvp::Topology t;
  try {
    t = load(text, "fuzz.yaml");
  } catch (const sanvp::UserError&) {
    return 0;
  }
  // A loaded topology is valid: everything below must work without a UserError. The text forms
  // and the round trip cost seconds for the largest generated networks (tree levels=6: 32768
  // nodes) under ASan: only for networks up to 4096 elements (the loader ran for all).
  (void)t.port_map();
  if (t.nodes.size() + t.switches.size() > 4096) return 0;
  (void)t.summary();
  (void)t.to_dot();
  (void)t.to_json().dump();
  const std::string yaml = t.to_yaml();
  sanvp::Topology again;
  try {
    again = load(yaml, "to_yaml");
  } catch (const sanvp::UserError& e) {
    std::fprintf(stderr, "to_yaml() output does not load: %s\n--- input\n%s\n--- to_yaml\n%s\n", e.what(), text.c_str(), yaml.c_str());
    std::abort();
  }
  // The reloaded copy is no longer "generated": compare without the generator comment line.
  const std::string body = yaml.rfind("# generated", 0) == 0 ? yaml.substr(yaml.find('\n') + 1) : yaml;
  if (again.to_yaml() != body) {
    std::fprintf(stderr, "to_yaml() round trip differs\n--- first\n%s\n--- second\n%s\n", yaml.c_str(), again.to_yaml().c_str());
    std::abort();
  }
  if (t.nodes.size() <= 64 && t.switches.size() <= 64) {
    for (bool shortest : {false, true}) {
      try {
        const sanvp::RouteTable rt = shortest ? sanvp::shortest_routes(t) : sanvp::updown_routes(t);
        const sanvp::DeadlockReport rep = sanvp::check_deadlock(t, rt);
        if (!rep.acyclic) (void)rep.describe(t);
        if (!shortest && !rep.acyclic) {
          std::fprintf(stderr, "up*/down* routes of a valid topology can deadlock\n%s\n", text.c_str());
          std::abort();
        }
      } catch (const sanvp::UserError&) {
      }
    }
  }
  return 0;
}
