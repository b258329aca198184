#include "platform/topo/topo_loader.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "platform/topo/generators.hpp"

namespace sanvp {

namespace {

// Ids, switch and port numbers are ints; their real bounds are checked by Topology::validate.
constexpr int kMaxIndex = INT32_MAX;

Origin origin(const YamlDoc& doc, const YAML::Node& n, const std::string& path) { return Origin{doc.where(n), path}; }

// Per-element parameter overrides: each key must name a parameter of one of `scopes`; stored by
// bare name. Values are checked against the parameter's type here, so the error has a position.
std::map<std::string, std::string> read_params(const YAML::Node& n, const YamlDoc& doc, const std::string& path,
                                               std::initializer_list<const char*> scopes) {
  std::map<std::string, std::string> out;
  doc.require_map(n, path);
  for (auto it = n.begin(); it != n.end(); ++it) {
    std::string key = it->first.Scalar();
    std::string name = key;
    const ParamSpec* spec = nullptr;
    std::string list;
    for (const char* sc : scopes) {
      const std::string prefix = std::string(sc) + ".";
      if (key.rfind(prefix, 0) == 0) name = key.substr(prefix.size());
      if (!spec) spec = ParamCatalog::find(prefix + name);
    }
    if (!spec) {
      for (const auto& p : ParamCatalog::sorted())
        for (const char* sc : scopes) if (p.scope == sc) list += (list.empty() ? "" : ", ") + p.name;
      doc.fail(it->first, path + "." + key, fmt::format("unknown parameter '{}' here (expected one of: {})", key, list));
    }
    const std::string value = doc.string(it->second, path + "." + key);
    try {
      validate_value(*spec, value, key);
    } catch (const UserError& e) {
      doc.fail(it->second, path + "." + key, fmt::format("bad value '{}' for {} ({})", value, spec->key(), e.what()));
    }
    out[name] = value;
  }
  return out;
}

// "S:P" or [S, P] or {switch: S, port: P}.
std::pair<int, int> read_endpoint(const YAML::Node& n, const YamlDoc& doc, const std::string& path) {
  if (n.IsSequence()) {
    if (n.size() != 2) doc.fail(n, path, "expected [switch, port]");
    return {doc.integer(n[0], path + "[0]", 0, kMaxIndex), doc.integer(n[1], path + "[1]", 0, kMaxIndex)};
  }
  if (n.IsMap()) {
    doc.check_keys(n, path, {"switch", "port"});
    if (!n["switch"] || !n["port"]) doc.fail(n, path, "needs both switch and port");
    return {doc.integer(n["switch"], path + ".switch", 0, kMaxIndex), doc.integer(n["port"], path + ".port", 0, kMaxIndex)};
  }
  const std::string s = doc.string(n, path);
  auto colon = s.find(':');
  if (colon == std::string::npos) doc.fail(n, path, fmt::format("expected switch:port such as \"3:5\", got '{}'", s));
  try {
    const auto sw = parse_int(s.substr(0, colon), path, 0, kMaxIndex), port = parse_int(s.substr(colon + 1), path, 0, kMaxIndex);
    return {static_cast<int>(sw), static_cast<int>(port)};
  } catch (const UserError&) {
  }
  doc.fail(n, path, fmt::format("expected switch:port such as \"3:5\", got '{}'", s));
}

// `generate: {type, args...}`: the generator's request, each argument with its position.
Topology generate_from(const YAML::Node& map, const YamlDoc& doc, const std::string& P) {
  for (const char* k : {"switches", "nodes", "links", "defaults"})
    if (map[k]) doc.fail(map[k], P + k, "cannot be combined with generate (a generated topology has no explicit elements)");
  const YAML::Node g = map["generate"];
  doc.require_map(g, P + "generate");
  if (!g["type"]) doc.fail(g, P + "generate", "missing key 'type' (single, star, tree, irregular, mesh, tdma-a, tdma-b)");
  GenRequest req;
  req.type = doc.string(g["type"], P + "generate.type");
  req.where = origin(doc, g["type"], P + "generate.type");
  for (auto it = g.begin(); it != g.end(); ++it) {
    const std::string k = it->first.Scalar();
    if (k == "type") continue;
    // The key's position, unless the value was put there by --set (it has none).
    const YAML::Node at = it->second.Mark().is_null() ? it->second : it->first;
    req.args[k] = GenArg{doc.string(it->second, P + "generate." + k), origin(doc, at, P + "generate." + k)};
  }
  return generate_topology(req);
}

// An element's id: its `id` key (whose position then names the element), else its index.
int element_id(const YAML::Node& e, const YamlDoc& doc, const std::string& ep, std::size_t i, Origin& where) {
  if (!e["id"]) return static_cast<int>(i);
  const int id = doc.integer(e["id"], ep + ".id", 0, kMaxIndex);
  where = origin(doc, e["id"], ep + ".id");
  return id;
}

// `switches`: a count (all with the default ports) or a list of {id, ports, params}.
void read_switches(const YAML::Node& sws, const YamlDoc& doc, const std::string& P, int def_ports, Topology& t) {
  if (sws.IsScalar()) {
    const auto n = doc.integer(sws, P + "switches");
    if (n < 1 || n > 100000) doc.fail(sws, P + "switches", fmt::format("switch count {} out of range 1..100000", n));
    for (int i = 0; i < n; ++i) {
      TopoSwitch s;
      s.id = i;
      s.ports = def_ports;
      s.where = s.where_ports = origin(doc, sws, fmt::format("{}switches[{}]", P, i));
      t.switches.push_back(s);
    }
    return;
  }
  doc.require_seq(sws, P + "switches");
  for (std::size_t i = 0; i < sws.size(); ++i) {
    const YAML::Node e = sws[i];
    const std::string ep = fmt::format("{}switches[{}]", P, i);
    doc.check_keys(e, ep, {"id", "ports", "params"});
    TopoSwitch s;
    s.where = origin(doc, e, ep);
    s.id = element_id(e, doc, ep, i, s.where);
    s.ports = e["ports"] ? doc.integer(e["ports"], ep + ".ports", 0, kMaxIndex) : def_ports;
    s.where_ports = e["ports"] ? origin(doc, e["ports"], ep + ".ports") : s.where;
    if (e["params"]) s.params = read_params(e["params"], doc, ep + ".params", {"switch", "fc"});
    t.switches.push_back(s);
  }
}

// nodes[i]: the shorthand "S:P" or {id, switch, port, params}.
TopoNode read_node(const YAML::Node& e, const YamlDoc& doc, const std::string& ep, std::size_t i) {
  TopoNode n;
  n.where = origin(doc, e, ep);
  if (e.IsScalar()) {
    auto [sw, port] = read_endpoint(e, doc, ep);
    n.id = static_cast<int>(i);
    n.sw = sw;
    n.port = port;
    n.where_sw = n.where_port = n.where;
    return n;
  }
  doc.check_keys(e, ep, {"id", "switch", "port", "params"});
  if (!e["switch"]) doc.fail(e, ep, "missing key 'switch'");
  if (!e["port"]) doc.fail(e, ep, "missing key 'port'");
  n.id = element_id(e, doc, ep, i, n.where);
  n.sw = doc.integer(e["switch"], ep + ".switch", 0, kMaxIndex);
  n.port = doc.integer(e["port"], ep + ".port", 0, kMaxIndex);
  n.where_sw = origin(doc, e["switch"], ep + ".switch");
  n.where_port = origin(doc, e["port"], ep + ".port");
  if (e["params"]) n.params = read_params(e["params"], doc, ep + ".params", {"link"});
  return n;
}

// links[i]: {a: "S:P", b: "S:P", params}.
TopoLink read_link(const YAML::Node& e, const YamlDoc& doc, const std::string& ep) {
  doc.check_keys(e, ep, {"a", "b", "params"});
  if (!e["a"]) doc.fail(e, ep, "missing key 'a' (switch:port)");
  if (!e["b"]) doc.fail(e, ep, "missing key 'b' (switch:port)");
  TopoLink l;
  l.where = origin(doc, e, ep);
  std::tie(l.sw_a, l.port_a) = read_endpoint(e["a"], doc, ep + ".a");
  std::tie(l.sw_b, l.port_b) = read_endpoint(e["b"], doc, ep + ".b");
  l.where_a = origin(doc, e["a"], ep + ".a");
  l.where_b = origin(doc, e["b"], ep + ".b");
  if (e["params"]) l.params = read_params(e["params"], doc, ep + ".params", {"link"});
  return l;
}

// An explicit topology: defaults, switches, nodes, links; validated.
Topology read_explicit(const YAML::Node& map, const YamlDoc& doc, const std::string& path, const std::string& P) {
  Topology t;
  int def_ports = 8;
  if (map["defaults"]) {
    doc.check_keys(map["defaults"], P + "defaults", {"ports"});
    if (map["defaults"]["ports"]) def_ports = doc.integer(map["defaults"]["ports"], P + "defaults.ports", 0, kMaxIndex);
  }
  const YAML::Node sws = map["switches"];
  if (!sws) doc.fail(map, path.empty() ? "topology" : path, "missing key 'switches' (or use 'generate')");
  read_switches(sws, doc, P, def_ports, t);
  if (const YAML::Node ns = map["nodes"]) {
    doc.require_seq(ns, P + "nodes");
    for (std::size_t i = 0; i < ns.size(); ++i) t.nodes.push_back(read_node(ns[i], doc, fmt::format("{}nodes[{}]", P, i), i));
  }
  if (const YAML::Node ls = map["links"]) {
    doc.require_seq(ls, P + "links");
    for (std::size_t i = 0; i < ls.size(); ++i) t.links.push_back(read_link(ls[i], doc, fmt::format("{}links[{}]", P, i)));
    t.where_links = origin(doc, ls, P + "links");
  } else {
    t.where_links = origin(doc, map, path.empty() ? "topology" : path);
  }
  t.validate();
  return t;
}

}  // namespace

Topology load_topology(const YAML::Node& map, const YamlDoc& doc, const std::string& path) {
  const std::string P = path.empty() ? "" : path + ".";
  doc.check_keys(map, path,
                 {"name", "description", "root", "defaults", "switches", "nodes", "links", "generate"});
  Topology t = map["generate"] ? generate_from(map, doc, P) : read_explicit(map, doc, path, P);
  if (map["name"]) t.name = doc.string(map["name"], P + "name");
  if (map["description"]) t.description = doc.string(map["description"], P + "description");
  if (map["root"]) {
    t.root = doc.integer(map["root"], P + "root", 0, kMaxIndex);
    t.where_root = origin(doc, map["root"], P + "root");
    if (t.root < 0 || t.root >= static_cast<int>(t.switches.size()))
      doc.fail(map["root"], P + "root", fmt::format("root switch {} does not exist (switches are 0..{})", t.root, t.switches.size() - 1));
  }
  return t;
}

Topology load_topology_file(const std::string& file) {
  YAML::Node root = YamlDoc::load_file(file);
  YamlDoc doc(file);
  if (!root.IsMap()) doc.fail(root, "topology", "a topology file is a map with switches/nodes/links or generate");
  return load_topology(root, doc, "");
}

}  // namespace sanvp
