// Networks the FBS tests share, built by the topology generators.
#pragma once
#include <map>
#include <string>

#include "platform/topo/generators.hpp"

namespace sanvp::fbs::test {

inline Topology generate(const std::string& type, const std::map<std::string, std::string>& args) {
  GenRequest r;
  r.type = type;
  for (const auto& [k, v] : args) r.args[k] = GenArg{v, Origin{"test", k}};
  return generate_topology(r);
}

// FBS Figure 2: 8 NICs under a binary tree of 4-port switches, 4 levels (NICs at level 0).
inline Topology figure2() { return generate("tree", {{"ports", "4"}, {"fanout", "2"}, {"root_fanout", "2"}, {"levels", "4"}}); }

}  // namespace sanvp::fbs::test
