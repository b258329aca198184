// Helpers shared by the topology tests.
#pragma once
#include <string>
#include <yaml-cpp/yaml.h>

#include "hw/base/error.hpp"
#include "platform/topo/generators.hpp"
#include "platform/topo/topo_loader.hpp"

namespace sanvp::test {

inline Topology gen(const std::string& type, std::map<std::string, std::string> args) {
  GenRequest r;
  r.type = type;
  r.where = Origin{"test", "generate"};
  for (auto& [k, v] : args) r.args[k] = GenArg{v, Origin{"test", k}};
  return generate_topology(r);
}

inline Topology load_text(const std::string& text, const std::string& name = "t.yaml") {
  YAML::Node root = YamlDoc::load_string(text, name);
  YamlDoc doc(name);
  return load_topology(root, doc, "");
}

// The UserError message `fn` throws, or "" if it does not throw.
template <class F> std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace sanvp::test
