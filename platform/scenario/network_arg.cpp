#include "platform/scenario/network_arg.hpp"

#include <filesystem>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/topo/generators.hpp"
#include "platform/topo/topo_loader.hpp"

namespace sanvp {
namespace {

Topology generated(const std::string& type, const std::vector<std::string>& kv) {
  GenRequest r;
  r.type = type;
  r.where = Origin{"command line", "type"};
  for (const auto& a : kv) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) throw UserError(fmt::format("TOPO: generator argument '{}' is not key=value", a));
    if (r.args.count(a.substr(0, eq))) throw UserError(fmt::format("TOPO: generator argument {} is given twice; give it once", a.substr(0, eq)));
    r.args[a.substr(0, eq)] = GenArg{a.substr(eq + 1), Origin{"command line", a.substr(0, eq)}};
  }
  return generate_topology(r);
}

// A scenario file: its topology, routes (explicit ones included) and NIC nodes.
void from_scenario(const std::string& file, NetworkArg& n) {
  ParamValues pv;
  const Scenario s = load_scenario(file, {}, pv);
  n.topo = s.topo;
  n.routes = scenario_routes(s);
  n.routing = s.routing;
  for (const auto& p : s.programs)
    if (!p.firmware.empty() || p.program) n.nics.push_back(p.node);
  n.name = s.name;
  n.source = {{"scenario", file}};
}

}  // namespace

NetworkArg load_network_arg(const std::string& arg, const std::vector<std::string>& gen_args) {
  NetworkArg n;
  std::error_code ec;  // a name the file system refuses is not a file: the error below names it
  if (gen_args.empty() && std::filesystem::exists(arg, ec)) {
    const YAML::Node root = YamlDoc::load_file(arg);
    if (root.IsMap() && root["topology"]) {
      from_scenario(arg, n);
    } else {
      n.topo = load_topology_file(arg);
      n.source = {{"topology", arg}};
    }
  } else {
    if (arg.find('/') != std::string::npos || arg.find(".y") != std::string::npos)
      throw UserError(fmt::format("TOPO: no such file '{}'", arg));
    n.topo = generated(arg, gen_args);
    n.source = {{"generate", arg}, {"args", gen_args}};
  }
  if (n.routing.empty()) {
    n.routes = updown_routes(n.topo);
    n.routing = "up-down";
  }
  if (n.nics.empty())
    for (const auto& x : n.topo.nodes) n.nics.push_back(x.id);
  std::sort(n.nics.begin(), n.nics.end());
  if (n.name.empty()) n.name = n.topo.name.empty() ? arg : n.topo.name;
  return n;
}

}  // namespace sanvp
