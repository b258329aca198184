#include "platform/topo/generators.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <set>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/base/rng.hpp"

namespace sanvp {

namespace {

constexpr int kMaxIrregularSwitches = 10000;
constexpr int kMaxMeshSwitches = 65536;

struct ArgSpec { const char* name; const char* def; const char* meaning; };
struct GenSpec { const char* type; std::vector<ArgSpec> args; const char* meaning; };

const std::vector<GenSpec>& specs() {
  static const std::vector<GenSpec> s{
      {"single", {{"ports", "8", "switch ports"}, {"nodes", "<ports>", "nodes on ports 0..nodes-1"}}, "one switch"},
      {"star", {{"hosts", "16", "hosts"}, {"ports", "<hosts>", "switch ports"}}, "Clint: every host on one central switch"},
      {"tree",
       {{"ports", "8", "switch ports k"}, {"levels", "3", "levels m, level 0 = NICs"},
        {"fanout", "<ports-1>", "children per non-root switch"}, {"root_fanout", "<min(ports,fanout+1)>", "children of the root"}},
       "FBS: tree of k-port switches, one uplink per switch"},
      {"irregular",
       {{"switches", "75", "switches q (1..10000)"}, {"nodes", "256", "nodes p"}, {"ports", "8", "ports per switch k"},
        {"f", "0.75", "connectivity: connected ports / all ports"}, {"seed", "1", "random seed"}},
       "BTIN: random connected irregular network"},
      {"mesh", {{"rows", "4", "rows"}, {"cols", "4", "columns (rows x cols <= 65536)"}, {"ports", "8", "switch ports"}, {"nodes", "1", "nodes per switch"}},
       "2-D mesh of switches"},
      {"tdma-a", {{"ports", "8", "switch ports"}}, "TDMA Appendix A network A: 2 switches, 4 nodes, one trunk"},
      {"tdma-b", {{"ports", "8", "switch ports"}}, "TDMA Appendix A network B: 2 switches, 4 nodes, two trunks"},
  };
  return s;
}

class Args {
 public:
  Args(const GenRequest& r, const GenSpec& s) : r_(r) {
    for (const auto& [k, a] : r.args) {
      bool known = false;
      std::string list;
      for (const auto& as : s.args) { known = known || k == as.name; list += (list.empty() ? "" : ", ") + std::string(as.name); }
      if (!known) throw UserError(fmt::format("{}: unknown key '{}' for generator '{}' (expected one of: {})", a.where.str(), k, r.type, list));
    }
  }
  bool has(const std::string& k) const { return r_.args.count(k) != 0; }
  const Origin& where(const std::string& k) const { return has(k) ? r_.args.at(k).where : r_.where; }
  std::int64_t integer(const std::string& k, std::int64_t def, std::int64_t lo, std::int64_t hi) const {
    if (!has(k)) return def;
    const auto& a = r_.args.at(k);
    std::int64_t v;
    try { v = parse_int(a.value, k); } catch (const UserError&) { bad(k, fmt::format("expected an integer, got '{}'", a.value)); }
    if (v < lo || v > hi) bad(k, fmt::format("{} out of range {}..{}", v, lo, hi));
    return v;
  }
  double real(const std::string& k, double def) const {
    if (!has(k)) return def;
    const auto& a = r_.args.at(k);
    try { return parse_real(a.value, k); } catch (const UserError&) { bad(k, fmt::format("expected a number, got '{}'", a.value)); }
  }
  [[noreturn]] void bad(const std::string& k, const std::string& msg) const { throw UserError(fmt::format("{}: {}", where(k).str(), msg)); }

 private:
  const GenRequest& r_;
};

Origin gen_origin(const GenRequest& r, const std::string& path) { return Origin{"generator " + r.type, path}; }

int add_switch(Topology& t, const GenRequest& r, int ports) {
  TopoSwitch s;
  s.id = static_cast<int>(t.switches.size());
  s.ports = ports;
  s.where = s.where_ports = gen_origin(r, fmt::format("switches[{}]", s.id));
  t.switches.push_back(s);
  return s.id;
}
int add_node(Topology& t, const GenRequest& r, int sw, int port) {
  TopoNode n;
  n.id = static_cast<int>(t.nodes.size());
  n.sw = sw;
  n.port = port;
  n.where = n.where_sw = n.where_port = gen_origin(r, fmt::format("nodes[{}]", n.id));
  t.nodes.push_back(n);
  return n.id;
}
void add_link(Topology& t, const GenRequest& r, int a, int pa, int b, int pb) {
  TopoLink l;
  l.sw_a = a; l.port_a = pa; l.sw_b = b; l.port_b = pb;
  l.where = l.where_a = l.where_b = gen_origin(r, fmt::format("links[{}]", t.links.size()));
  t.links.push_back(l);
}

void gen_single(Topology& t, const GenRequest& r, const Args& a, int def_ports, const char* ports_key) {
  const int k = static_cast<int>(a.integer("ports", def_ports, 2, 64));
  const int n = static_cast<int>(a.integer(ports_key, k, 0, 1 << 20));
  if (n > k) a.bad(ports_key, fmt::format("{} nodes do not fit on one {}-port switch", n, k));
  int sw = add_switch(t, r, k);
  for (int p = 0; p < n; ++p) add_node(t, r, sw, p);
}

void gen_tree(Topology& t, const GenRequest& r, const Args& a) {
  const int k = static_cast<int>(a.integer("ports", 8, 2, 64));
  const int m = static_cast<int>(a.integer("levels", 3, 2, 16));
  const int c = static_cast<int>(a.integer("fanout", k - 1, 1, 64));
  const int rc = static_cast<int>(a.integer("root_fanout", std::min(k, c + 1), 1, 64));
  if (c + 1 > k) a.bad("fanout", fmt::format("fanout {} plus one uplink needs {} ports, a switch has {}", c, c + 1, k));
  if (rc > k) a.bad("root_fanout", fmt::format("root_fanout {} exceeds the {} ports of a switch", rc, k));
  double hosts = rc * std::pow(c, m - 2);
  if (hosts > 65536) a.bad("levels", fmt::format("the tree would have {:.0f} nodes (limit 65536)", hosts));
  // Switches in BFS order (root = switch 0, the up*/down* root); NICs numbered left to right.
  struct Pending { int sw; int level; };
  std::vector<Pending> level_sw{{add_switch(t, r, k), m - 1}};
  std::vector<std::vector<int>> children(1);
  for (std::size_t i = 0; i < level_sw.size(); ++i) {
    const auto [sw, lvl] = level_sw[i];
    const int nchild = sw == 0 ? rc : c;
    if (lvl == 1) continue;
    for (int j = 0; j < nchild; ++j) {
      int ch = add_switch(t, r, k);
      level_sw.push_back({ch, lvl - 1});
      children.resize(t.switches.size());
      children[sw].push_back(ch);
      add_link(t, r, sw, j, ch, c);  // child's uplink is the port after its children
    }
  }
  children.resize(t.switches.size());
  // NICs in depth-first order so that NIC indices run left to right as in FBS Figure 2.
  std::vector<int> leaves_in_order;
  auto dfs = [&](auto&& self, int sw) -> void {
    if (children[sw].empty()) { leaves_in_order.push_back(sw); return; }
    for (int ch : children[sw]) self(self, ch);
  };
  dfs(dfs, 0);
  for (int sw : leaves_in_order)
    for (int j = 0; j < (sw == 0 ? rc : c); ++j) add_node(t, r, sw, j);
}

void gen_irregular(Topology& t, const GenRequest& r, const Args& a) {
  // The generator is quadratic in the switch count (10000 switches: ~11 s; 100000: hours), so
  // larger networks are refused up front rather than left running without a word.
  const int q = static_cast<int>(a.integer("switches", 75, 1, kMaxIrregularSwitches));
  const int p = static_cast<int>(a.integer("nodes", 256, 0, 1000000));
  const int k = static_cast<int>(a.integer("ports", 8, 2, 64));
  const double f = a.real("f", 0.75);
  const std::uint64_t seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  if (!(f > 0.0 && f <= 1.0)) a.bad("f", fmt::format("connectivity f={} out of range (0, 1]", f));
  const long total = static_cast<long>(q) * k;
  const long used = std::lround(f * static_cast<double>(total));
  if (p > total) a.bad("nodes", fmt::format("{} nodes do not fit on {} switches of {} ports", p, q, k));
  const int per_sw_max = (p + q - 1) / q;
  if (q > 1 && per_sw_max > k - 1)
    a.bad("nodes", fmt::format("{} nodes on {} switches put {} nodes on a switch, leaving no port of {} for a link", p, q, per_sw_max, k));
  if (used < p)
    a.bad("f", fmt::format("f={} too small: {} ports x {} switches x f = {} connected ports cannot even hold the {} nodes", f, k, q, used, p));
  const long L = (used - p) / 2;
  if (q > 1 && L < q - 1)
    a.bad("f", fmt::format("f={} too small to connect {} switches: {} ports x {} switches x f = {} connected ports; {} nodes leave {} "
                           "ports = {} links, but a connected network needs at least {} links (f >= {:.4f})",
                           f, q, k, q, used, p, used - p, L, q - 1, static_cast<double>(p + 2L * (q - 1)) / static_cast<double>(total)));
  if (L > static_cast<long>(q) * (q - 1) / 2)
    a.bad("f", fmt::format("f={} too large: {} links do not fit between {} switches without parallel links", f, L, q));

  Rng rng(seed, "topo.irregular");
  // Nodes spread evenly; which switches carry one extra node is random.
  std::vector<int> npsw(static_cast<std::size_t>(q), p / q);
  std::vector<int> order(static_cast<std::size_t>(q));
  for (int i = 0; i < q; ++i) order[i] = i;
  auto shuffle = [&](std::vector<int>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
  };
  shuffle(order);
  for (int i = 0; i < p % q; ++i) ++npsw[order[i]];

  for (int attempt = 0; attempt < 50; ++attempt) {
    std::vector<int> free(static_cast<std::size_t>(q));
    for (int s = 0; s < q; ++s) free[s] = k - npsw[s];
    std::set<std::pair<int, int>> edges;
    std::vector<std::pair<int, int>> list;
    bool ok = true;
    // Random spanning tree first (guarantees connectivity), in a random switch order.
    shuffle(order);
    for (int i = 1; i < q && ok; ++i) {
      std::vector<int> cand;
      for (int j = 0; j < i; ++j) if (free[order[j]] > 0) cand.push_back(order[j]);
      if (cand.empty() || free[order[i]] == 0) { ok = false; break; }
      int b = cand[rng.below(cand.size())], s = order[i];
      --free[b]; --free[s];
      edges.emplace(std::min(s, b), std::max(s, b));
      list.emplace_back(b, s);
    }
    // Remaining links between random switches with free ports (port-weighted).
    long extra = L - (q > 1 ? q - 1 : 0);
    long tries = 0;
    while (ok && extra > 0) {
      std::vector<int> stubs;
      for (int s = 0; s < q; ++s) for (int j = 0; j < free[s]; ++j) stubs.push_back(s);
      if (stubs.size() < 2) { ok = false; break; }
      int x = stubs[rng.below(stubs.size())], y = stubs[rng.below(stubs.size())];
      if (x == y || edges.count({std::min(x, y), std::max(x, y)})) {
        if (++tries > 200 * (L + 10)) ok = false;
        continue;
      }
      --free[x]; --free[y];
      edges.emplace(std::min(x, y), std::max(x, y));
      list.emplace_back(x, y);
      --extra;
    }
    if (!ok) continue;
    for (int s = 0; s < q; ++s) add_switch(t, r, k);
    std::vector<int> next_port(static_cast<std::size_t>(q), 0);
    for (int s = 0; s < q; ++s) for (int j = 0; j < npsw[s]; ++j) add_node(t, r, s, next_port[s]++);
    for (auto [x, y] : list) add_link(t, r, x, next_port[x]++, y, next_port[y]++);
    return;
  }
  a.bad("f", fmt::format("could not place {} links between {} switches with {} free ports each without self or parallel links", L, q,
                         k - per_sw_max));
}

void gen_mesh(Topology& t, const GenRequest& r, const Args& a) {
  const int rows = static_cast<int>(a.integer("rows", 4, 1, 1024));
  const int cols = static_cast<int>(a.integer("cols", 4, 1, 1024));
  if (rows * cols > kMaxMeshSwitches)
    a.bad("cols", fmt::format("a {}x{} mesh has {} switches (limit {})", rows, cols, rows * cols, kMaxMeshSwitches));
  const int k = static_cast<int>(a.integer("ports", 8, 2, 64));
  const int n = static_cast<int>(a.integer("nodes", 1, 0, 64));
  if (n + 4 > k) a.bad("nodes", fmt::format("{} nodes plus 4 mesh links need {} ports, a switch has {}", n, n + 4, k));
  // Ports: nodes on 0..n-1, then east n, west n+1, north n+2, south n+3.
  for (int i = 0; i < rows * cols; ++i) add_switch(t, r, k);
  for (int s = 0; s < rows * cols; ++s) for (int j = 0; j < n; ++j) add_node(t, r, s, j);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const int s = y * cols + x;
      if (x + 1 < cols) add_link(t, r, s, n, s + 1, n + 1);
      if (y + 1 < rows) add_link(t, r, s, n + 3, s + cols, n + 2);
    }
}

void gen_tdma(Topology& t, const GenRequest& r, const Args& a, bool b) {
  const int k = static_cast<int>(a.integer("ports", 8, b ? 4 : 3, 64));
  int s0 = add_switch(t, r, k), s1 = add_switch(t, r, k);
  add_node(t, r, s0, 0);  // R0
  add_node(t, r, s0, 1);  // R1
  add_node(t, r, s1, 0);  // R2
  add_node(t, r, s1, 1);  // R3
  add_link(t, r, s0, 2, s1, 2);  // R4
  if (b) add_link(t, r, s0, 3, s1, 3);  // R5
}

}  // namespace

Topology generate_topology(const GenRequest& req) {
  const GenSpec* spec = nullptr;
  std::string list;
  for (const auto& s : specs()) {
    if (req.type == s.type) spec = &s;
    list += (list.empty() ? "" : ", ") + std::string(s.type);
  }
  if (!spec) throw UserError(fmt::format("{}: unknown generator '{}' (available: {})", req.where.str(), req.type, list));
  Args a(req, *spec);
  Topology t;
  t.generator["type"] = req.type;
  for (const auto& [k, v] : req.args) t.generator[k] = v.value;
  std::string argtext;
  for (const auto& [k, v] : req.args) argtext += fmt::format(" {}={}", k, v.value);
  t.name = req.type + argtext;
  t.description = spec->meaning;
  if (req.type == "single") gen_single(t, req, a, 8, "nodes");
  else if (req.type == "star") gen_single(t, req, a, static_cast<int>(a.integer("hosts", 16, 1, 64)), "hosts");
  else if (req.type == "tree") gen_tree(t, req, a);
  else if (req.type == "irregular") gen_irregular(t, req, a);
  else if (req.type == "mesh") gen_mesh(t, req, a);
  else if (req.type == "tdma-a") gen_tdma(t, req, a, false);
  else if (req.type == "tdma-b") gen_tdma(t, req, a, true);
  t.where_links = req.where;
  t.validate();
  return t;
}

std::string generator_help() {
  std::string s;
  for (const auto& g : specs()) {
    s += fmt::format("  {:<10} {}\n", g.type, g.meaning);
    for (const auto& a : g.args) s += fmt::format("      {:<34} {}\n", fmt::format("{}={}", a.name, a.def), a.meaning);
  }
  return s;
}

}  // namespace sanvp
