#include "platform/topo/routing.hpp"

#include <deque>
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
