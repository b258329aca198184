// Topology files (YAML). A document is either explicit
//   switches: [{id: 0, ports: 8, params: {rd: 120ns}}, ...]   (or a count: `switches: 4`)
//   nodes:    [{id: 0, switch: 0, port: 0, params: {ld: 20ns}}, ...]
//   links:    [{a: "0:4", b: "1:4", params: {ld: 50ns}}, ...]
// or generated
//   generate: {type: irregular, switches: 75, nodes: 256, ports: 8, f: 0.75, seed: 1}
// plus optional name, description, root (up*/down* root switch) and defaults: {ports: N}.
#pragma once
#include <string>
#include <yaml-cpp/yaml.h>

#include "platform/topo/topology.hpp"
#include "platform/topo/yaml_util.hpp"

namespace sanvp {

// Reads a topology map; `path` prefixes key paths in messages ("topology." inside a scenario).
// The result is validated.
Topology load_topology(const YAML::Node& map, const YamlDoc& doc, const std::string& path);
Topology load_topology_file(const std::string& file);

}  // namespace sanvp
