#include "platform/topo/topology.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <fmt/format.h>
#include <sstream>

#include "hw/base/error.hpp"
#include "platform/sim/network.hpp"

namespace sanvp {

namespace {
[[noreturn]] void fail(const Origin& o, const std::string& msg) { throw UserError(o.str() + ": " + msg); }
}  // namespace

void Topology::validate() {
  if (switches.empty()) fail(where_links, "the network has no switches");
  // Ids: unique, then dense 0..N-1 so instance names sw<id>/n<id> are the ids the user wrote.
  std::map<int, const TopoSwitch*> sw_by_id;
  for (const auto& s : switches) {
    if (s.id < 0) fail(s.where, fmt::format("switch id {} is negative", s.id));
    auto [it, fresh] = sw_by_id.emplace(s.id, &s);
    if (!fresh) fail(s.where, fmt::format("duplicate switch id {} (first declared at {})", s.id, it->second->where.at));
    if (s.ports < 2 || s.ports > 64) fail(s.where_ports, fmt::format("switch {} has {} ports; a switch has 2..64 ports", s.id, s.ports));
  }
  for (int i = 0; i < static_cast<int>(switches.size()); ++i)
    if (!sw_by_id.count(i))
      fail(switches.back().where, fmt::format("switch ids must be 0..{} without gaps; switch {} is missing", switches.size() - 1, i));
  std::map<int, const TopoNode*> node_by_id;
  for (const auto& n : nodes) {
    if (n.id < 0) fail(n.where, fmt::format("node id {} is negative", n.id));
    auto [it, fresh] = node_by_id.emplace(n.id, &n);
    if (!fresh)
      fail(n.where, fmt::format("node {} attached twice: here to switch {} port {}, first at {} to switch {} port {}", n.id, n.sw,
                                n.port, it->second->where.at, it->second->sw, it->second->port));
  }
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i)
    if (!node_by_id.count(i))
      fail(nodes.back().where, fmt::format("node ids must be 0..{} without gaps; node {} is missing", nodes.size() - 1, i));
  std::sort(switches.begin(), switches.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });

  // Ports: each exists and is used once.
  std::vector<std::vector<std::string>> used(switches.size());
  for (std::size_t s = 0; s < switches.size(); ++s) used[s].assign(static_cast<std::size_t>(switches[s].ports), "");
  auto claim = [&](int sw, int port, const Origin& o_sw, const Origin& o_port, const std::string& who) {
    if (sw < 0 || sw >= static_cast<int>(switches.size()))
      fail(o_sw, fmt::format("switch {} does not exist (switches are 0..{})", sw, switches.size() - 1));
    if (port < 0 || port >= switches[sw].ports)
      fail(o_port, fmt::format("port {} does not exist on switch {} ({} ports: 0..{})", port, sw, switches[sw].ports,
                               switches[sw].ports - 1));
    auto& u = used[sw][port];
    if (!u.empty()) fail(o_port, fmt::format("port {} of switch {} is already used by {}", port, sw, u));
    u = who;
  };
  for (const auto& n : nodes)
    claim(n.sw, n.port, n.where_sw, n.where_port, fmt::format("node {} ({})", n.id, n.where.str()));
  for (const auto& l : links) {
    const std::string who = fmt::format("{} ({})", l.where.path, l.where.at);
    claim(l.sw_a, l.port_a, l.where_a, l.where_a, who);
    claim(l.sw_b, l.port_b, l.where_b, l.where_b, who);
  }
  if (root >= static_cast<int>(switches.size()))
    fail(where_root, fmt::format("root switch {} does not exist (switches are 0..{})", root, switches.size() - 1));

  // Connectivity over switch-to-switch links.
  std::vector<std::vector<int>> adj(switches.size());
  for (const auto& l : links) {
    adj[l.sw_a].push_back(l.sw_b);
    adj[l.sw_b].push_back(l.sw_a);
  }
  std::vector<char> seen(switches.size(), 0);
  std::deque<int> q{0};
  seen[0] = 1;
  while (!q.empty()) {
    int s = q.front();
    q.pop_front();
    for (int nb : adj[s]) if (!seen[nb]) { seen[nb] = 1; q.push_back(nb); }
  }
  std::vector<int> cut;
  for (std::size_t s = 0; s < switches.size(); ++s) if (!seen[s]) cut.push_back(static_cast<int>(s));
  if (!cut.empty()) {
    std::string list;
    for (std::size_t i = 0; i < cut.size() && i < 8; ++i) list += (i ? ", " : "") + std::to_string(cut[i]);
    if (cut.size() > 8) list += fmt::format(" and {} more", cut.size() - 8);
    fail(where_links, fmt::format("network is disconnected: switch{} {} cannot reach switch 0", cut.size() > 1 ? "es" : "", list));
  }
}

std::vector<std::vector<PortEnd>> Topology::port_map() const {
  std::vector<std::vector<PortEnd>> m(switches.size());
  for (std::size_t s = 0; s < switches.size(); ++s) m[s].resize(static_cast<std::size_t>(switches[s].ports));
  for (const auto& n : nodes) m[n.sw][n.port] = PortEnd{PortEnd::Node, n.id, -1};
  for (const auto& l : links) {
    m[l.sw_a][l.port_a] = PortEnd{PortEnd::Switch, l.sw_b, l.port_b};
    m[l.sw_b][l.port_b] = PortEnd{PortEnd::Switch, l.sw_a, l.port_a};
  }
  return m;
}

void Topology::apply_params(ParamValues& pv) const {
  for (const auto& s : switches)
    for (const auto& [k, v] : s.params) pv.set(fmt::format("sw{}.{}", s.id, k), v, s.where.str());
  for (const auto& n : nodes)
    for (const auto& [k, v] : n.params) {
      pv.set(fmt::format("n{}.out.{}", n.id, k), v, n.where.str());
      pv.set(fmt::format("sw{}.p{}.out.{}", n.sw, n.port, k), v, n.where.str());
    }
  for (const auto& l : links)
    for (const auto& [k, v] : l.params) {
      pv.set(fmt::format("sw{}.p{}.out.{}", l.sw_a, l.port_a, k), v, l.where.str());
      pv.set(fmt::format("sw{}.p{}.out.{}", l.sw_b, l.port_b, k), v, l.where.str());
    }
}

Topology topology_of(const Network& net) {
  Topology t;
  t.name = "network";
  const Origin here{"network", "built in code"};
  for (int s = 0; s < net.switches(); ++s) {
    TopoSwitch x;
    x.id = s;
    x.ports = net.switch_ports(s);
    x.where = x.where_ports = here;
    t.switches.push_back(x);
  }
  for (int n = 0; n < net.nodes(); ++n) {
    TopoNode x;
    x.id = n;
    x.sw = net.attachment(n).sw;
    x.port = net.attachment(n).port;
    x.where = x.where_sw = x.where_port = here;
    t.nodes.push_back(x);
  }
  for (const auto& k : net.trunks()) {
    TopoLink x;
    x.sw_a = k.sw_a;
    x.port_a = k.port_a;
    x.sw_b = k.sw_b;
    x.port_b = k.port_b;
    x.where = x.where_a = x.where_b = here;
    t.links.push_back(x);
  }
  t.where_links = here;
  t.validate();
  return t;
}

void Topology::populate(Network& net) const {
  for (const auto& s : switches) net.add_switch(s.ports);
  for (const auto& n : nodes) net.add_node(n.sw, n.port);
  for (const auto& l : links) net.connect(l.sw_a, l.port_a, l.sw_b, l.port_b);
}

namespace {
// A YAML double-quoted scalar that reads back as exactly `v` (to_yaml output is loaded again).
std::string yaml_quoted(const std::string& v) {
  std::string q = "\"";
  for (const char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') q += {'\\', ch};
    else if (c < 0x20 || c == 0x7f) q += fmt::format("\\x{:02x}", c);
    else q += ch;
  }
  return q + "\"";
}
// `v` as is when YAML reads it back unchanged as a plain scalar, else quoted.
std::string yaml_scalar(const std::string& v) {
  bool plain = !v.empty() && (std::isalnum(static_cast<unsigned char>(v[0])) || v[0] == '_') && v != "null" && v != "Null" && v != "NULL";
  for (const char c : v) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '+');
  return plain ? v : yaml_quoted(v);
}
std::string params_flow(const std::map<std::string, std::string>& p) {
  std::string s;
  for (const auto& [k, v] : p) s += fmt::format("{}{}: {}", s.empty() ? "" : ", ", k, yaml_scalar(v));
  return "{" + s + "}";
}
}  // namespace

std::string Topology::to_yaml() const {
  std::ostringstream o;
  if (!generator.is_null()) o << "# generated by sanvp topo gen: " << generator.dump() << "\n";
  if (!name.empty()) o << "name: " << yaml_scalar(name) << "\n";
  if (!description.empty()) o << "description: " << yaml_quoted(description) << "\n";
  if (root >= 0) o << "root: " << root << "\n";
  o << "switches:\n";
  for (const auto& s : switches) {
    o << fmt::format("  - {{id: {}, ports: {}", s.id, s.ports);
    if (!s.params.empty()) o << ", params: " << params_flow(s.params);
    o << "}\n";
  }
  o << (nodes.empty() ? "nodes: []\n" : "nodes:\n");
  for (const auto& n : nodes) {
    o << fmt::format("  - {{id: {}, switch: {}, port: {}", n.id, n.sw, n.port);
    if (!n.params.empty()) o << ", params: " << params_flow(n.params);
    o << "}\n";
  }
  o << (links.empty() ? "links: []\n" : "links:\n");
  for (const auto& l : links) {
    o << fmt::format("  - {{a: \"{}:{}\", b: \"{}:{}\"", l.sw_a, l.port_a, l.sw_b, l.port_b);
    if (!l.params.empty()) o << ", params: " << params_flow(l.params);
    o << "}\n";
  }
  return o.str();
}

std::string Topology::to_dot() const {
  std::ostringstream o;
  o << "graph \"" << (name.empty() ? "sanvp" : name) << "\" {\n  overlap=false;\n";
  for (const auto& s : switches)
    o << fmt::format("  sw{} [shape=box, style=filled, fillcolor=\"{}\", label=\"sw{}\\n{} ports\"];\n", s.id,
                     s.id == root_switch() ? "lightsalmon" : "lightblue", s.id, s.ports);
  for (const auto& n : nodes) o << fmt::format("  n{} [shape=ellipse];\n", n.id);
  for (const auto& n : nodes) o << fmt::format("  n{} -- sw{} [headlabel=\"{}\"];\n", n.id, n.sw, n.port);
  for (const auto& l : links)
    o << fmt::format("  sw{} -- sw{} [taillabel=\"{}\", headlabel=\"{}\"{}];\n", l.sw_a, l.sw_b, l.port_a, l.port_b,
                     l.params.empty() ? "" : ", style=bold");
  o << "}\n";
  return o.str();
}

std::string Topology::summary() const {
  std::ostringstream o;
  int total_ports = 0, used_ports = 0;
  for (const auto& s : switches) total_ports += s.ports;
  used_ports = static_cast<int>(nodes.size() + 2 * links.size());
  std::vector<int> npsw(switches.size(), 0), deg(switches.size(), 0);
  for (const auto& n : nodes) ++npsw[n.sw];
  for (const auto& l : links) { ++deg[l.sw_a]; ++deg[l.sw_b]; }
  // Switch-hop diameter by BFS from every switch.
  std::vector<std::vector<int>> adj(switches.size());
  for (const auto& l : links) { adj[l.sw_a].push_back(l.sw_b); adj[l.sw_b].push_back(l.sw_a); }
  int diameter = 0;
  for (std::size_t s = 0; s < switches.size(); ++s) {
    std::vector<int> d(switches.size(), -1);
    std::deque<int> q{static_cast<int>(s)};
    d[s] = 0;
    while (!q.empty()) {
      int x = q.front();
      q.pop_front();
      for (int y : adj[x]) if (d[y] < 0) { d[y] = d[x] + 1; diameter = std::max(diameter, d[y]); q.push_back(y); }
    }
  }
  auto mm = [](const std::vector<int>& v) {
    if (v.empty()) return std::string("-");
    return fmt::format("{}..{}", *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  };
  o << fmt::format("topology: {}\n", name.empty() ? "(unnamed)" : name);
  if (!description.empty()) o << fmt::format("  {}\n", description);
  o << fmt::format("switches: {}   nodes: {}   switch-to-switch links: {}\n", switches.size(), nodes.size(), links.size());
  o << fmt::format("ports: {} total, {} connected (connectivity f = {:.4f}), {} open\n", total_ports, used_ports,
                   total_ports ? static_cast<double>(used_ports) / total_ports : 0.0, total_ports - used_ports);
  o << fmt::format("nodes per switch: {}   links per switch: {}   diameter: {} switch hops\n", mm(npsw), mm(deg), diameter);
  o << fmt::format("up*/down* root: switch {}\n", root_switch());
  return o.str();
}

nlohmann::json Topology::to_json() const {
  nlohmann::json j;
  j["name"] = name;
  j["switches"] = nlohmann::json::array();
  for (const auto& s : switches) {
    nlohmann::json e{{"id", s.id}, {"ports", s.ports}};
    if (!s.params.empty()) e["params"] = s.params;
    j["switches"].push_back(e);
  }
  j["nodes"] = nlohmann::json::array();
  for (const auto& n : nodes) {
    nlohmann::json e{{"id", n.id}, {"switch", n.sw}, {"port", n.port}};
    if (!n.params.empty()) e["params"] = n.params;
    j["nodes"].push_back(e);
  }
  j["links"] = nlohmann::json::array();
  for (const auto& l : links) {
    nlohmann::json e{{"a", fmt::format("{}:{}", l.sw_a, l.port_a)}, {"b", fmt::format("{}:{}", l.sw_b, l.port_b)}};
    if (!l.params.empty()) e["params"] = l.params;
    j["links"].push_back(e);
  }
  j["root"] = root_switch();
  if (!generator.is_null()) j["generator"] = generator;
  return j;
}

}  // namespace sanvp
