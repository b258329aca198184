#include "platform/scenario/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "firmware/runtime/include/fw/routes.h"
#include "hw/base/error.hpp"
#include "hw/base/utf8.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/host/host_apps.hpp"
#include "platform/host/nic_nodes.hpp"
#include "platform/topo/topo_loader.hpp"
#include "platform/topo/yaml_util.hpp"

namespace sanvp {

namespace fs = std::filesystem;

namespace {

const std::initializer_list<const char*> kSections = {"name", "description", "seed", "duration", "topology", "routing",
                                                      "params", "traffic", "nodes", "tracing"};

bool is_section(const std::string& head) {
  for (const char* s : kSections) if (head == s) return true;
  return false;
}

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> v;
  std::size_t pos = 0;
  while (true) {
    auto n = s.find(c, pos);
    v.push_back(s.substr(pos, n == std::string::npos ? std::string::npos : n - pos));
    if (n == std::string::npos) break;
    pos = n + 1;
  }
  return v;
}

// Sets doc[parts...] = value, creating maps on the way.
void set_path(YAML::Node node, const std::vector<std::string>& parts, std::size_t i, const YAML::Node& value, const std::string& key) {
  const std::string& part = parts[i];
  if (part.empty()) throw UserError(fmt::format("--set: '{}' has an empty key component", key));
  const bool last = i + 1 == parts.size();
  if (node.IsSequence()) {
    std::size_t idx = 0;
    try { idx = static_cast<std::size_t>(std::stoul(part)); } catch (const std::exception&) {
      throw UserError(fmt::format("--set: '{}': '{}' indexes a list and must be a number", key, part));
    }
    if (idx >= node.size()) throw UserError(fmt::format("--set: '{}': index {} beyond the {} list items", key, idx, node.size()));
    if (last) { node[idx] = value; return; }
    set_path(node[idx], parts, i + 1, value, key);
    return;
  }
  if (!node.IsMap() && !node.IsNull()) throw UserError(fmt::format("--set: '{}': '{}' is inside a plain value, not a map", key, part));
  if (last) { node[part] = value; return; }
  if (!node[part] || node[part].IsNull() || node[part].IsScalar()) node[part] = YAML::Node(YAML::NodeType::Map);
  set_path(node[part], parts, i + 1, value, key);
}

std::string resolve(const std::string& dir, const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) path = fs::path(dir) / path;
  return path.lexically_normal().string();
}

}  // namespace

namespace {

// The parsed document, refused when empty or not a map.
YAML::Node read_document(const std::string& file, const YamlDoc& doc) {
  YAML::Node d = YamlDoc::load_file(file);
  if (!d.IsDefined() || d.IsNull())  // an empty file has no position to report
    throw UserError(fmt::format("{}: scenario: the file is empty (a scenario file is a map with at least a 'topology' section)", file));
  if (!d.IsMap()) doc.fail(d, "scenario", "a scenario file is a map with at least a 'topology' section");
  return d;
}

// --set: scenario values edit the document; everything else is a model parameter, returned to be
// applied last (it wins over the file).
std::vector<std::pair<std::string, std::string>> apply_overrides(Scenario& s, const std::vector<std::string>& sets) {
  std::vector<std::pair<std::string, std::string>> param_sets;
  for (const auto& kv : sets) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw UserError(fmt::format("--set: '{}' is not key=value", kv));
    if (!valid_utf8(kv)) throw UserError(fmt::format("--set: '{}' is not valid UTF-8 text", kv));  // the report is JSON
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    const auto parts = split(key, '.');
    if (!is_section(parts[0])) { param_sets.emplace_back(key, value); continue; }
    YAML::Node v = (!value.empty() && (value[0] == '[' || value[0] == '{')) ? YamlDoc::load_string(value, "--set " + key) : YAML::Node(value);
    set_path(s.doc, parts, 0, v, key);
    s.sets.push_back(kv);
  }
  for (const auto& [k, v] : param_sets) s.sets.push_back(k + "=" + v);
  return param_sets;
}

void read_header(Scenario& s, const YamlDoc& doc) {
  const YAML::Node& D = s.doc;
  s.name = D["name"] ? doc.string(D["name"], "name") : fs::path(s.file).stem().string();
  if (D["description"]) s.description = doc.string(D["description"], "description");
  if (D["seed"]) {
    const auto v = doc.integer(D["seed"], "seed");
    if (v < 0) doc.fail(D["seed"], "seed", "must be 0 or greater");
    s.seed = static_cast<std::uint64_t>(v);
  }
}

// Topology: a file name, {file: name}, or inline (explicit or generate).
// Why `path` cannot be used as an input file ("" when it is a regular file). Never throws: a
// name the file system refuses (too long, bad characters) is bad input, not a crash.
std::string unusable_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return "";
  if (ec && ec != std::errc::no_such_file_or_directory) return "cannot be used: " + ec.message();
  if (fs::is_directory(path, ec)) return "is a folder, not a file";
  return fs::exists(path, ec) ? "is not a regular file" : "not found";
}

void read_topology(Scenario& s, const YamlDoc& doc) {
  const YAML::Node T = s.doc["topology"];
  if (!T) doc.fail(s.doc, "topology", "missing section 'topology' (a file name, or switches/nodes/links, or generate)");
  if (T.IsScalar() || (T.IsMap() && T["file"])) {
    const YAML::Node f = T.IsScalar() ? T : T["file"];
    if (T.IsMap()) doc.check_keys(T, "topology", {"file"});
    const std::string path = resolve(s.dir, doc.string(f, "topology.file"));
    if (const std::string why = unusable_file(path); !why.empty())
      doc.fail(f, T.IsScalar() ? "topology" : "topology.file", fmt::format("topology file '{}' {}", path, why));
    s.topo = load_topology_file(path);
  } else {
    s.topo = load_topology(T, doc, "topology");
  }
}

// One item of routing.routes: {src, dst, route: [bytes]}.
ExplicitRoute read_explicit_route(const YAML::Node& item, const std::string& ep, int nodes, const YamlDoc& doc) {
  doc.check_keys(item, ep, {"src", "dst", "route"});
  for (const char* k : {"src", "dst", "route"}) if (!item[k]) doc.fail(item, ep, fmt::format("missing key '{}'", k));
  ExplicitRoute r;
  r.src = doc.integer(item["src"], ep + ".src", INT32_MIN, INT32_MAX);
  r.dst = doc.integer(item["dst"], ep + ".dst", INT32_MIN, INT32_MAX);
  for (const char* k : {"src", "dst"}) {
    const int v = k[0] == 's' ? r.src : r.dst;
    if (v < 0 || v >= nodes) doc.fail(item[k], ep + "." + k, fmt::format("node {} does not exist (nodes are 0..{})", v, nodes - 1));
  }
  if (r.src == r.dst) doc.fail(item["dst"], ep + ".dst", "a node does not route to itself");
  const YAML::Node B = item["route"];
  doc.require_seq(B, ep + ".route");
  for (std::size_t h = 0; h < B.size(); ++h) {
    const auto b = doc.integer(B[h], fmt::format("{}.route[{}]", ep, h));
    if (b < 0 || b > 255) doc.fail(B[h], fmt::format("{}.route[{}]", ep, h), fmt::format("route byte {} out of range 0..255", b));
    r.route.push_back(static_cast<std::uint8_t>(b));
  }
  r.where = Origin{doc.where(item), ep};
  return r;
}

void read_routing(Scenario& s, const YamlDoc& doc) {
  const YAML::Node R = s.doc["routing"];
  if (!R) return;
  doc.check_keys(R, "routing", {"algorithm", "root", "check_deadlock", "routes", "alternates", "extra_hops"});
  s.where_routing = Origin{doc.where(R), "routing"};
  if (R["algorithm"]) {
    s.routing = doc.string(R["algorithm"], "routing.algorithm");
    if (s.routing != "up-down" && s.routing != "shortest")
      doc.fail(R["algorithm"], "routing.algorithm", fmt::format("unknown algorithm '{}' (up-down, shortest)", s.routing));
  }
  if (R["root"]) {
    const int root = doc.integer(R["root"], "routing.root", INT32_MIN, INT32_MAX);
    if (root < 0 || root >= static_cast<int>(s.topo.switches.size()))
      doc.fail(R["root"], "routing.root", fmt::format("switch {} does not exist (switches are 0..{})", root, s.topo.switches.size() - 1));
    s.topo.root = root;
  }
  if (R["check_deadlock"]) s.check_deadlock = doc.boolean(R["check_deadlock"], "routing.check_deadlock");
  if (R["alternates"]) s.alternates = doc.integer(R["alternates"], "routing.alternates", 0, static_cast<int>(route_abi::kSetMaxRoutes) - 1);
  if (R["extra_hops"]) s.extra_hops = doc.integer(R["extra_hops"], "routing.extra_hops", 0, 8);
  if (const YAML::Node L = R["routes"]) {
    doc.require_seq(L, "routing.routes");
    const int n = static_cast<int>(s.topo.nodes.size());
    for (std::size_t i = 0; i < L.size(); ++i) s.routes.push_back(read_explicit_route(L[i], fmt::format("routing.routes[{}]", i), n, doc));
  }
}

// Per-element overrides from the topology first; the scenario's params, traffic and duration win
// over them (and --set over all, applied last by load_scenario).
void read_parameters(const Scenario& s, const YamlDoc& doc, ParamValues& pv) {
  const YAML::Node& D = s.doc;
  s.topo.apply_params(pv);
  // One key set twice in the file (params: {traffic.load}, traffic: {load}, duration) is an error:
  // one of the two would silently lose.
  std::map<std::string, std::string> set_at;
  const auto set = [&](const std::string& key, const YAML::Node& at, const YAML::Node& value, const std::string& as) {
    const std::string here = doc.where(at);
    if (const auto it = set_at.find(key); it != set_at.end())
      doc.fail(at, as, fmt::format("{} is already set at {}; give it once", key, it->second));
    set_at[key] = here;
    pv.set(key, doc.string(value, as), here + ": " + as);
  };
  if (const YAML::Node P = D["params"]) {
    doc.require_map(P, "params");
    for (auto it = P.begin(); it != P.end(); ++it) set(it->first.Scalar(), it->first, it->second, "params." + it->first.Scalar());
  }
  if (const YAML::Node TR = D["traffic"]) {
    doc.require_map(TR, "traffic");
    for (auto it = TR.begin(); it != TR.end(); ++it) {
      const std::string k = it->first.Scalar();
      if (!ParamCatalog::find("traffic." + k)) {
        std::string list;
        for (const auto& p : ParamCatalog::sorted()) if (p.scope == "traffic") list += (list.empty() ? "" : ", ") + p.name;
        doc.fail(it->first, "traffic." + k, fmt::format("unknown key '{}' (expected one of: {})", k, list));
      }
      set("traffic." + k, it->second, it->second, "traffic." + k);
    }
  }
  if (D["duration"]) {
    doc.time(D["duration"], "duration");
    set("sim.duration", D["duration"], D["duration"], "duration");
  }
}

// nodes[i].firmware: builtin:NAME or a path relative to the scenario file.
void read_firmware(const Scenario& s, const YAML::Node& F, const std::string& ep, const YamlDoc& doc, NodeProgram& p) {
  p.firmware_given = doc.string(F, ep + ".firmware");
  if (p.firmware_given.rfind("builtin:", 0) == 0) {
    const std::string name = p.firmware_given.substr(8);
    const fw::BuiltinFirmware* b = fw::find_builtin_firmware(name);
    if (!b)
      doc.fail(F, ep + ".firmware", fmt::format("unknown built-in firmware '{}' (known: {})", name, fw::builtin_firmware_names()));
    p.firmware = b->image;
    if (!unusable_file(p.firmware).empty())
      doc.fail(F, ep + ".firmware", fmt::format("built-in firmware '{}' has not been built (expected at '{}': build target {})", name,
                                                p.firmware, b->target));
  } else {
    p.firmware = resolve(s.dir, p.firmware_given);
    if (const std::string why = unusable_file(p.firmware); !why.empty())
      doc.fail(F, ep + ".firmware", fmt::format("firmware image '{}' {}", p.firmware, why));
  }
  p.where = Origin{doc.where(F), ep + ".firmware"};
}

// nodes[i].host: {app, args}; a host application needs a NIC (a firmware image).
void read_host(const YAML::Node& H, const std::string& ep, const YamlDoc& doc, NodeProgram& p) {
  doc.check_keys(H, ep + ".host", {"app", "args"});
  if (!H["app"]) doc.fail(H, ep + ".host", "missing key 'app'");
  p.host_app = doc.string(H["app"], ep + ".host.app");
  if (!host::is_host_app(p.host_app))
    doc.fail(H["app"], ep + ".host.app", fmt::format("unknown host application '{}' (known: {})", p.host_app, host::host_app_names()));
  if (const YAML::Node A = H["args"]) {
    doc.require_seq(A, ep + ".host.args");
    for (std::size_t j = 0; j < A.size(); ++j) p.host_args.push_back(doc.string(A[j], fmt::format("{}.host.args[{}]", ep, j)));
  }
  if (p.firmware.empty())
    doc.fail(H, ep + ".host", "a host application needs a NIC: give this node a firmware image (e.g. 'firmware: builtin:msg')");
}

// The applications must fit together (peers are NIC nodes, pingpong pairs agree, streams go to
// sinks): the error points at the argument or application concerned. `host_nodes[i]` is the
// host section of program i (for argument positions).
void check_host_apps(const Scenario& s, const std::vector<YAML::Node>& host_nodes, const YamlDoc& doc) {
  std::vector<bool> nic(s.topo.nodes.size(), false);
  std::vector<host::AppSpec> apps;
  std::vector<std::size_t> prog_of;
  for (std::size_t i = 0; i < s.programs.size(); ++i) {
    nic[static_cast<std::size_t>(s.programs[i].node)] = !s.programs[i].firmware.empty();
    if (s.programs[i].host_app.empty()) continue;
    apps.push_back(host::AppSpec{s.programs[i].node, s.programs[i].host_app, s.programs[i].host_args});
    prog_of.push_back(i);
  }
  if (const auto e = host::check_apps(apps, nic)) {
    const std::size_t i = prog_of[e->index];
    const YAML::Node H = host_nodes[i];
    const std::string ep = fmt::format("nodes[{}].host", i);
    if (e->arg >= 0 && H["args"] && static_cast<std::size_t>(e->arg) < H["args"].size())
      doc.fail(H["args"][static_cast<std::size_t>(e->arg)], fmt::format("{}.args[{}]", ep, e->arg), fmt::format("{}: {}", s.programs[i].host_app, e->message));
    doc.fail(H["app"], ep + ".app", fmt::format("{}: {}", s.programs[i].host_app, e->message));
  }
}

// Per-node programs: a firmware image makes the node a host with a NIC; its host runs a
// built-in application (platform/host/host_apps.hpp).
void read_nodes(Scenario& s, const YamlDoc& doc) {
  const YAML::Node N = s.doc["nodes"];
  if (!N) return;
  doc.require_seq(N, "nodes");
  std::map<int, std::size_t> seen;
  std::vector<YAML::Node> host_nodes;
  for (std::size_t i = 0; i < N.size(); ++i) {
    const std::string ep = fmt::format("nodes[{}]", i);
    doc.check_keys(N[i], ep, {"id", "firmware", "host"});
    if (!N[i]["id"]) doc.fail(N[i], ep, "missing key 'id'");
    NodeProgram p;
    p.node = doc.integer(N[i]["id"], ep + ".id", INT32_MIN, INT32_MAX);
    if (p.node < 0 || p.node >= static_cast<int>(s.topo.nodes.size()))
      doc.fail(N[i]["id"], ep + ".id", fmt::format("node {} does not exist (nodes are 0..{})", p.node, s.topo.nodes.size() - 1));
    if (!seen.emplace(p.node, i).second)
      doc.fail(N[i]["id"], ep + ".id", fmt::format("node {} is already described by nodes[{}]", p.node, seen[p.node]));
    p.where = Origin{doc.where(N[i]), ep};
    if (const YAML::Node F = N[i]["firmware"]) read_firmware(s, F, ep, doc, p);
    YAML::Node host_node;
    if (const YAML::Node H = N[i]["host"]) {
      host_node = H;
      read_host(H, ep, doc, p);
    }
    host_nodes.push_back(host_node);
    s.programs.push_back(std::move(p));
  }
  check_host_apps(s, host_nodes, doc);
}

void read_tracing(Scenario& s, const YamlDoc& doc) {
  const YAML::Node TC = s.doc["tracing"];
  if (!TC) return;
  doc.check_keys(TC, "tracing", {"vcd", "modules", "window"});
  if (TC["vcd"]) s.vcd = doc.string(TC["vcd"], "tracing.vcd");
  if (TC["modules"]) s.trace = doc.string(TC["modules"], "tracing.modules");
  if (TC["window"]) {
    s.trace_window = doc.string(TC["window"], "tracing.window");
    // Checked here, where the file and line are known (the run parses it again as the window).
    parse_time_window(s.trace_window, doc.where(TC["window"]) + ": tracing.window");
  }
}

}  // namespace

// The sections are read in a fixed order (so the first error reported does not change): header,
// topology, routing, parameters, nodes, tracing; model parameters from --set last.
Scenario load_scenario(const std::string& file, const std::vector<std::string>& sets, ParamValues& pv) {
  Scenario s;
  s.file = file;
  s.dir = fs::path(file).parent_path().string();
  if (s.dir.empty()) s.dir = ".";
  const YamlDoc doc(file, "--set override");
  s.doc = read_document(file, doc);
  const auto param_sets = apply_overrides(s, sets);
  doc.check_keys(s.doc, "", kSections);
  read_header(s, doc);
  read_topology(s, doc);
  read_routing(s, doc);
  read_parameters(s, doc, pv);
  read_nodes(s, doc);
  read_tracing(s, doc);
  for (const auto& [k, v] : param_sets) pv.set(k, v, "--set");
  return s;
}

RouteTable scenario_routes(const Scenario& s, DeadlockReport* report) {
  RouteTable rt = s.routing == "shortest" ? shortest_routes(s.topo) : updown_routes(s.topo);
  const auto pm = s.topo.port_map();
  for (const auto& r : s.routes) {
    const RouteTable::View v{r.route.data(), r.route.size()};
    const int reached = walk_route(s.topo, pm, r.src, v, r.where.str() + fmt::format(": route n{}->n{}", r.src, r.dst));
    if (reached != r.dst) throw UserError(fmt::format("{}: route [{}] from n{} ends at n{}, not n{}", r.where.str(), format_route(v), r.src, reached, r.dst));
    rt.replace(r.src, r.dst, r.route);
  }
  DeadlockReport rep = check_deadlock(s.topo, rt);
  if (!rep.acyclic && s.check_deadlock)
    throw UserError(fmt::format("{}: routes can deadlock (set routing.check_deadlock: false to run them anyway)\n{}",
                                s.where_routing.at.empty() ? s.file : s.where_routing.str(), rep.describe(s.topo)));
  if (report) *report = rep;
  return rt;
}

host::NodeRouteSource firmware_routes(const Scenario& s, std::shared_ptr<const RouteTable> rt, const std::vector<int>& nodes,
                                      DeadlockReport* report) {
  using Routes = std::vector<std::vector<std::uint8_t>>;
  auto self = std::make_shared<std::vector<std::uint8_t>>();
  for (const int n : nodes) self->resize(std::max<std::size_t>(self->size(), static_cast<std::size_t>(n) + 1));
  for (const int n : nodes) (*self)[static_cast<std::size_t>(n)] = self_route(s.topo, n).front();
  auto alts = std::make_shared<std::map<std::pair<int, int>, Routes>>();
  if (s.alternates > 0) {
    AlternateRoutes alt(s.topo, s.routing != "shortest", s.extra_hops);
    std::vector<ExtraRoute> extra;
    for (const int a : nodes)
      for (const int b : nodes) {
        if (a == b) continue;
        Routes r = alt.routes(a, b, rt->at(a, b), s.alternates);
        for (const auto& x : r) extra.push_back(ExtraRoute{a, b, x});
        if (!r.empty()) (*alts)[{a, b}] = std::move(r);
      }
    DeadlockReport rep = check_deadlock(s.topo, *rt, extra);
    if (!rep.acyclic && s.check_deadlock)
      throw UserError(fmt::format("{}: routes with their alternates can deadlock (routing.alternates: {}; set routing.check_deadlock: "
                                  "false to run them anyway)\n{}",
                                  s.where_routing.at.empty() ? s.file : s.where_routing.str(), s.alternates, rep.describe(s.topo)));
    if (report) *report = rep;
  }
  return [rt, self, alts](int src, int dst) -> Routes {
    if (src == dst) return {{(*self)[static_cast<std::size_t>(src)]}};
    Routes r{rt->vec(src, dst)};
    const auto it = alts->find({src, dst});
    if (it != alts->end()) r.insert(r.end(), it->second.begin(), it->second.end());
    return r;
  };
}

RunSpec scenario_run_spec(const Scenario& s) {
  RunSpec spec;
  std::vector<host::NicNodeSpec> nics;
  for (const auto& p : s.programs)
    if (!p.firmware.empty()) nics.push_back(host::NicNodeSpec{p.node, p.firmware, p.host_app, p.host_args, p.program});
  auto topo = std::make_shared<Topology>(s.topo);
  DeadlockReport rep;
  auto rt = std::make_shared<RouteTable>(scenario_routes(s, &rep));
  if (!nics.empty()) {
    std::vector<int> nic_nodes;
    for (const auto& n : nics) nic_nodes.push_back(n.node);
    host::NodeRouteSource routes = firmware_routes(s, rt, nic_nodes, &rep);
    spec.agents = [nics, routes](Network& net, ParamValues& pv, std::uint64_t seed) { return host::make_nic_nodes(net, pv, seed, nics, routes); };
  }
  spec.topology = [topo](Network& net) { topo->populate(net); };
  spec.routes = [rt](Network& net) {
    const int n = rt->nodes();
    std::vector<std::vector<std::vector<std::uint8_t>>> table(static_cast<std::size_t>(n), std::vector<std::vector<std::uint8_t>>(static_cast<std::size_t>(n)));
    for (int a = 0; a < n; ++a) for (int b = 0; b < n; ++b) table[a][b] = rt->vec(a, b);
    net.set_route_table(std::move(table));
  };
  spec.scenario_json = scenario_json(s);
  spec.scenario_json["routing"] = {{"algorithm", s.routing}, {"root", s.topo.root_switch()}, {"explicit_routes", s.routes.size()},
                                   {"deadlock_check", s.check_deadlock}, {"dependency_graph_acyclic", rep.acyclic},
                                   {"channels", rep.channels}, {"dependencies", rep.dependencies}};
  if (!rep.acyclic) spec.scenario_json["routing"]["dependency_cycle"] = rep.describe(s.topo);
  if (s.alternates > 0) {  // only then: reports of runs without alternates keep their form
    spec.scenario_json["routing"]["alternates"] = s.alternates;
    spec.scenario_json["routing"]["extra_hops"] = s.extra_hops;
  }
  return spec;
}

nlohmann::json scenario_json(const Scenario& s) {
  nlohmann::json j;
  j["name"] = s.name;
  j["description"] = s.description;
  j["file"] = s.file;
  j["overrides"] = s.sets;
  j["effective"] = yaml_to_json(s.doc);
  j["topology"] = s.topo.to_json();  // as loaded or generated, with per-element overrides
  if (!s.programs.empty()) {
    j["programs"] = nlohmann::json::array();
    for (const auto& p : s.programs)
      j["programs"].push_back({{"node", p.node}, {"firmware", p.firmware_given}, {"host_app", p.host_app}, {"host_args", p.host_args}});
  }
  return j;
}

}  // namespace sanvp
