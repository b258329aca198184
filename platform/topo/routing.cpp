#include "platform/topo/routing.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

void RouteTable::append(int src, int dst, const std::uint8_t* b, std::size_t len) {
  const std::size_t i = static_cast<std::size_t>(src) * n_ + dst;
  if (i != next_) throw std::logic_error("RouteTable::append out of order");
  bytes_.insert(bytes_.end(), b, b + len);
  off_[i + 1] = static_cast<std::uint32_t>(bytes_.size());
  ++next_;
}

void RouteTable::replace(int src, int dst, const std::vector<std::uint8_t>& route) {
  RouteTable t(n_);
  for (int s = 0; s < n_; ++s)
    for (int d = 0; d < n_; ++d) {
      if (s == src && d == dst) t.append(s, d, route.data(), route.size());
      else { auto v = at(s, d); t.append(s, d, v.data, v.size); }
    }
  *this = std::move(t);
}

UpDownTree updown_tree(const Topology& t) {
  UpDownTree u;
  u.root = t.root_switch();
  const auto pm = t.port_map();
  u.level.assign(t.switches.size(), -1);
  std::deque<int> q{u.root};
  u.level[u.root] = 0;
  while (!q.empty()) {
    int s = q.front();
    q.pop_front();
    for (const auto& e : pm[s])
      if (e.kind == PortEnd::Switch && u.level[e.id] < 0) { u.level[e.id] = u.level[s] + 1; q.push_back(e.id); }
  }
  return u;
}

namespace {

// Switch-level paths from every switch to every switch as output-port sequences, by BFS over
// (switch, phase) states. With `updown`, phase 1 means a down link was taken and up links are
// forbidden from then on; without it every link is allowed.
std::vector<std::vector<std::vector<std::uint8_t>>> switch_paths(const Topology& t, bool updown) {
  const int q = static_cast<int>(t.switches.size());
  const auto pm = t.port_map();
  const UpDownTree u = updown_tree(t);
  std::vector<std::vector<std::vector<std::uint8_t>>> paths(static_cast<std::size_t>(q), std::vector<std::vector<std::uint8_t>>(static_cast<std::size_t>(q)));
  const int states = 2 * q;
  std::vector<int> dist(static_cast<std::size_t>(states)), prev(static_cast<std::size_t>(states)), prev_port(static_cast<std::size_t>(states));
  for (int S = 0; S < q; ++S) {
    std::fill(dist.begin(), dist.end(), -1);
    std::deque<int> dq{S * 2};
    dist[S * 2] = 0;
    while (!dq.empty()) {
      const int st = dq.front();
      dq.pop_front();
      const int x = st / 2, phase = st % 2;
      for (int p = 0; p < static_cast<int>(pm[x].size()); ++p) {
        const auto& e = pm[x][p];
        if (e.kind != PortEnd::Switch) continue;
        int nphase = 0;
        if (updown) {
          const bool up = u.up(x, e.id);
          if (phase == 1 && up) continue;
          nphase = up ? 0 : 1;
        }
        const int ns = e.id * 2 + nphase;
        if (dist[ns] >= 0) continue;
        dist[ns] = dist[st] + 1;
        prev[ns] = st;
        prev_port[ns] = p;
        dq.push_back(ns);
      }
    }
    for (int D = 0; D < q; ++D) {
      int best = -1;
      for (int ph = 0; ph < 2; ++ph) {
        const int st = D * 2 + ph;
        if (dist[st] >= 0 && (best < 0 || dist[st] < dist[best])) best = st;
      }
      if (best < 0) throw UserError(fmt::format("routing: no legal route from switch {} to switch {}", S, D));
      std::vector<std::uint8_t> r(static_cast<std::size_t>(dist[best]));
      for (int st = best, i = dist[best] - 1; st != S * 2; st = prev[st], --i) r[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(prev_port[st]);
      paths[S][D] = std::move(r);
    }
  }
  return paths;
}

RouteTable node_routes(const Topology& t, const std::vector<std::vector<std::vector<std::uint8_t>>>& paths) {
  const int n = static_cast<int>(t.nodes.size());
  RouteTable rt(n);
  std::vector<std::uint8_t> buf;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d) {
      if (s == d) { rt.append(s, d, nullptr, 0); continue; }
      const auto& p = paths[t.nodes[s].sw][t.nodes[d].sw];
      buf.assign(p.begin(), p.end());
      buf.push_back(static_cast<std::uint8_t>(t.nodes[d].port));
      rt.append(s, d, buf.data(), buf.size());
    }
  return rt;
}

}  // namespace

RouteTable updown_routes(const Topology& t) { return node_routes(t, switch_paths(t, true)); }
RouteTable shortest_routes(const Topology& t) { return node_routes(t, switch_paths(t, false)); }

std::vector<std::uint8_t> self_route(const Topology& t, int n) {
  return {static_cast<std::uint8_t>(t.nodes.at(static_cast<std::size_t>(n)).port)};
}

AlternateRoutes::AlternateRoutes(const Topology& t, bool updown, int extra_hops)
    : t_(t), pm_(t.port_map()), tree_(updown_tree(t)), updown_(updown), extra_(extra_hops) {
  const std::size_t q = t.switches.size();
  cache_.assign(q, std::vector<std::vector<std::vector<std::uint8_t>>>(q));
  cached_.assign(q, std::vector<char>(q, 0));
}

const std::vector<std::vector<std::uint8_t>>& AlternateRoutes::candidates(int S, int D) {
  auto& out = cache_[S][D];
  if (cached_[S][D]) return out;
  cached_[S][D] = 1;
  const int q = static_cast<int>(pm_.size());
  // States (switch, phase) as in switch_paths: phase 1 = a down link was taken (up*/down* only).
  auto next_state = [&](int st, const PortEnd& e) -> int {
    if (e.kind != PortEnd::Switch) return -1;
    const int x = st / 2, phase = st % 2;
    if (!updown_) return e.id * 2;
    const bool up = tree_.up(x, e.id);
    if (phase == 1 && up) return -1;
    return e.id * 2 + (up ? 0 : 1);
  };
  // Hops from each state to switch D (either phase), by relaxation until nothing changes.
  std::vector<int> to_d(static_cast<std::size_t>(2 * q), -1);
  to_d[D * 2] = to_d[D * 2 + 1] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int st = 0; st < 2 * q; ++st)
      for (const auto& e : pm_[st / 2]) {
        const int ns = next_state(st, e);
        if (ns < 0 || to_d[ns] < 0) continue;
        if (to_d[st] < 0 || to_d[ns] + 1 < to_d[st]) { to_d[st] = to_d[ns] + 1; changed = true; }
      }
  }
  if (S == D || to_d[S * 2] < 0) return out;
  // Paths of exactly `len` hops, depth first in port order, no switch twice, pruned by to_d.
  std::vector<char> on_path(static_cast<std::size_t>(q), 0);
  std::vector<std::uint8_t> path;
  std::function<void(int, int)> dfs = [&](int st, int len) {
    if (static_cast<int>(out.size()) >= kMaxCandidates) return;
    const int x = st / 2, left = len - static_cast<int>(path.size());
    if (x == D) { if (left == 0) out.push_back(path); return; }
    if (left <= 0) return;
    for (int p = 0; p < static_cast<int>(pm_[x].size()); ++p) {
      const int ns = next_state(st, pm_[x][p]);
      if (ns < 0 || on_path[ns / 2] || to_d[ns] < 0 || to_d[ns] > left - 1) continue;
      on_path[ns / 2] = 1;
      path.push_back(static_cast<std::uint8_t>(p));
      dfs(ns, len);
      path.pop_back();
      on_path[ns / 2] = 0;
    }
  };
  on_path[S] = 1;
  for (int len = to_d[S * 2]; len <= to_d[S * 2] + extra_; ++len) dfs(S * 2, len);
  return out;
}

std::vector<std::vector<std::uint8_t>> AlternateRoutes::routes(int src, int dst, RouteTable::View primary, int count) {
  std::vector<std::vector<std::uint8_t>> out;
  const int S = t_.nodes.at(static_cast<std::size_t>(src)).sw, D = t_.nodes.at(static_cast<std::size_t>(dst)).sw;
  if (count <= 0 || src == dst || S == D) return out;
  // The switch-to-switch links (switch, output port) a route takes from S.
  auto links = [&](const std::uint8_t* b, std::size_t n) {
    std::vector<std::pair<int, int>> v;
    int sw = S;
    for (std::size_t h = 0; h < n && b[h] < pm_[sw].size() && pm_[sw][b[h]].kind == PortEnd::Switch; ++h) {
      v.emplace_back(sw, b[h]);
      sw = pm_[sw][b[h]].id;
    }
    return v;
  };
  const auto prim = links(primary.data, primary.size);
  struct Cand { std::vector<std::uint8_t> route; std::size_t shared; };
  std::vector<Cand> cands;
  for (const auto& sp : candidates(S, D)) {
    std::vector<std::uint8_t> r = sp;
    r.push_back(static_cast<std::uint8_t>(t_.nodes[static_cast<std::size_t>(dst)].port));
    if (r.size() == primary.size && std::equal(r.begin(), r.end(), primary.begin())) continue;
    std::size_t shared = 0;
    for (const auto& l : links(sp.data(), sp.size())) shared += std::count(prim.begin(), prim.end(), l) != 0;
    cands.push_back(Cand{std::move(r), shared});
  }
  // Candidates come shortest first, in port order; keep that order within equal keys.
  std::stable_sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) {
    return a.route.size() != b.route.size() ? a.route.size() < b.route.size() : a.shared < b.shared;
  });
  for (std::size_t i = 0; i < cands.size() && static_cast<int>(out.size()) < count; ++i) out.push_back(std::move(cands[i].route));
  return out;
}

int walk_route(const Topology& t, const std::vector<std::vector<PortEnd>>& pm, int src, RouteTable::View route,
               const std::string& what) {
  int s = t.nodes.at(static_cast<std::size_t>(src)).sw;
  for (std::size_t h = 0; h < route.size; ++h) {
    const int port = route[h];
    if (port >= static_cast<int>(pm[s].size()))
      throw UserError(fmt::format("{}: hop {} names port {} but switch {} has {} ports", what, h, port, s, pm[s].size()));
    const auto& e = pm[s][port];
    if (e.kind == PortEnd::Open) throw UserError(fmt::format("{}: hop {} leaves switch {} through unconnected port {}", what, h, s, port));
    if (e.kind == PortEnd::Node) {
      if (h + 1 != route.size)
        throw UserError(fmt::format("{}: hop {} reaches node {} with {} route bytes left", what, h, e.id, route.size - h - 1));
      return e.id;
    }
    s = e.id;
  }
  throw UserError(fmt::format("{}: route ends inside the network at switch {}", what, s));
}

std::string format_route(RouteTable::View r) {
  std::string s;
  for (std::size_t i = 0; i < r.size; ++i) s += fmt::format("{}{}", i ? " " : "", r[i]);
  return s;
}

}  // namespace sanvp
