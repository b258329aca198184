#include "platform/fbs/schedule_check.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>

#include "hw/base/error.hpp"

namespace sanvp::fbs {
namespace {

using Idx = std::size_t;

struct Edge { int time, from, to; };  // from ->_d to with TIME = time

std::string msg_text(const Message& m) { return fmt::format("n{}=>n{}", m.src, m.dst); }

// Directed links of the message's route, or a BadMessage text.
std::string route_links(const Message& m, const Topology& t, const std::vector<std::vector<PortEnd>>& pm, const RouteTable& rt,
                        std::vector<std::string>& links) {
  const int n = static_cast<int>(t.nodes.size());
  if (m.src < 0 || m.src >= n || m.dst < 0 || m.dst >= n) return fmt::format("names a node outside 0..{}", n - 1);
  const auto self = self_route(t, m.src);
  const RouteTable::View r = m.src == m.dst ? RouteTable::View{self.data(), self.size()} : rt.at(m.src, m.dst);
  try {
    const int reached = walk_route(t, pm, m.src, r, "route");
    if (reached != m.dst) return fmt::format("its route [{}] reaches n{}", format_route(r), reached);
  } catch (const UserError& e) {
    return e.what();
  }
  links.push_back(fmt::format("n{}.out", m.src));
  for (int sw = t.nodes[Idx(m.src)].sw, h = 0; h < static_cast<int>(r.size); ++h) {
    links.push_back(fmt::format("sw{}.p{}.out", sw, r[Idx(h)]));
    sw = pm[Idx(sw)][r[Idx(h)]].id;  // walked above: only the last hop leaves for a node
  }
  return {};
}

// Per slot: every directed link a message uses -> (message, switches crossed up to it).
using SlotLinks = std::map<std::string, std::pair<Message, int>>;

SlotLinks slot_links(const Schedule& s, Idx& i, const Topology& t, const std::vector<std::vector<PortEnd>>& pm, const RouteTable& rt) {
  SlotLinks out;
  const int slot = s.messages[i].slot;
  for (; i < s.messages.size() && s.messages[i].slot == slot; ++i) {
    std::vector<std::string> links;
    if (!route_links(s.messages[i], t, pm, rt, links).empty()) continue;
    for (Idx k = 0; k < links.size(); ++k) out.emplace(links[k], std::make_pair(s.messages[i], static_cast<int>(k)));
  }
  return out;
}

void check_conflicts(const Schedule& s, const Topology& t, const RouteTable& rt, CheckResult& out) {
  const auto pm = t.port_map();
  std::map<std::string, Idx> used;  // link -> message index, for the current slot
  for (Idx i = 0; i < s.messages.size(); ++i) {
    const Message& m = s.messages[i];
    if (i == 0 || s.messages[i - 1].slot != m.slot) used.clear();
    std::vector<std::string> links;
    const std::string bad = route_links(m, t, pm, rt, links);
    if (!bad.empty()) {
      Violation v;
      v.first = m;
      v.text = bad;
      out.violations.push_back(v);
      continue;
    }
    // One violation per pair of messages: the first link they share on this route, and how many more.
    std::map<Idx, Idx> pair_at;  // earlier message -> its violation
    for (const auto& l : links) {
      const auto [it, fresh] = used.emplace(l, i);
      if (fresh) continue;
      const auto seen = pair_at.find(it->second);
      if (seen != pair_at.end()) {
        ++out.violations[seen->second].more_links;
        continue;
      }
      Violation v;
      v.kind = Violation::Kind::LinkConflict;
      v.first = s.messages[it->second];
      v.second = m;
      v.link = l;
      pair_at[it->second] = out.violations.size();
      out.violations.push_back(v);
    }
  }
}

// Direct precedences in TIME order: s =>_ts d and f =>_ts+1 d give s ->_d f at TIME ts.
std::vector<Edge> direct_edges(const Schedule& s) {
  std::map<int, std::map<int, std::vector<int>>> to;  // slot -> dst -> senders
  for (const auto& m : s.messages) to[m.slot][m.dst].push_back(m.src);
  std::vector<Edge> edges;
  for (const auto& [slot, by_dst] : to) {
    const auto next = to.find(slot + 1);
    if (next == to.end()) continue;
    for (const auto& [d, senders] : by_dst) {
      const auto f = next->second.find(d);
      if (f == next->second.end()) continue;
      for (int a : senders)
        for (int b : f->second)
          if (a != b) edges.push_back({slot, a, b});
    }
  }
  return edges;
}

void check_dependency(const Schedule& s, const Topology& t, CheckResult& out) {
  const std::vector<Edge> edges = direct_edges(s);
  const int inf = std::numeric_limits<int>::max(), n = static_cast<int>(t.nodes.size());
  std::vector<int> reach(static_cast<Idx>(n));  // reach[x]: the smallest TIME of a chain's last edge from src to x
  for (int src : out.nics) {
    std::fill(reach.begin(), reach.end(), inf);
    // Edges come in ascending TIME; `reach[a] < time` keeps TIMEs strictly increasing (an edge of
    // the same TIME that just reached `a` does not extend).
    for (const Edge& e : edges)
      if (e.from >= 0 && e.from < n && e.to >= 0 && e.to < n && (e.from == src || reach[Idx(e.from)] < e.time))
        reach[Idx(e.to)] = std::min(reach[Idx(e.to)], e.time);
    for (int f : out.nics)
      if (f != src && reach[Idx(f)] == inf) {
        Violation v;
        v.kind = Violation::Kind::MissingPrecedence;
        v.from = src;
        v.to = f;
        out.violations.push_back(v);
      }
  }
}

}  // namespace

Convergence worst_convergence(const Schedule& s, const Topology& t, const RouteTable& rt) {
  const auto pm = t.port_map();
  Convergence worst;
  SlotLinks prev;
  int prev_slot = -2;
  for (Idx i = 0; i < s.messages.size();) {
    const int slot = s.messages[i].slot;
    SlotLinks cur = slot_links(s, i, t, pm, rt);
    if (slot == prev_slot + 1)
      for (const auto& [link, later] : cur) {
        const auto e = prev.find(link);
        if (e == prev.end() || e->second.second - later.second <= worst.extra()) continue;
        worst = Convergence{e->second.first, later.first, link, e->second.second, later.second};
      }
    prev = std::move(cur);
    prev_slot = slot;
  }
  return worst;
}

std::string format_convergence(const Convergence& c) {
  if (c.extra() <= 0) return "no slot's packet reaches a link over more switches than the next slot's";
  return fmt::format("slot {}'s {} crosses {} switches to {}, slot {}'s {} {}", c.earlier.slot, msg_text(c.earlier), c.earlier_switches, c.link,
                     c.later.slot, msg_text(c.later), c.later_switches);
}

int CheckResult::conflicts() const {
  return static_cast<int>(std::count_if(violations.begin(), violations.end(), [](const Violation& v) { return v.kind == Violation::Kind::LinkConflict; }));
}

int CheckResult::missing() const {
  return static_cast<int>(std::count_if(violations.begin(), violations.end(), [](const Violation& v) { return v.kind == Violation::Kind::MissingPrecedence; }));
}

CheckResult check_schedule(const Schedule& s, const Topology& topo, const RouteTable& routes, const std::vector<int>& nics) {
  if (routes.nodes() != static_cast<int>(topo.nodes.size()))
    throw UserError(fmt::format("fbs check: the route table has {} nodes, the topology {}", routes.nodes(), topo.nodes.size()));
  CheckResult r;
  r.nics = nics;
  if (r.nics.empty())
    for (const auto& n : topo.nodes) r.nics.push_back(n.id);
  std::sort(r.nics.begin(), r.nics.end());
  r.nics.erase(std::unique(r.nics.begin(), r.nics.end()), r.nics.end());
  for (int x : r.nics)
    if (x < 0 || x >= static_cast<int>(topo.nodes.size())) throw UserError(fmt::format("fbs check: NIC {} is not a node of the topology", x));
  Schedule sorted = s;
  normalize(sorted);
  check_conflicts(sorted, topo, routes, r);
  check_dependency(sorted, topo, r);
  return r;
}

std::string format_violation(const Violation& v) {
  switch (v.kind) {
    case Violation::Kind::LinkConflict:
      return fmt::format("slot {}: {} and {} both use link {}{}", v.first.slot, msg_text(v.first), msg_text(v.second), v.link,
                         v.more_links ? fmt::format(" (and {} more)", v.more_links) : "");
    case Violation::Kind::MissingPrecedence:
      return fmt::format("missing precedence: n{} -> n{} (no chain of direct precedences with increasing TIMEs)", v.from, v.to);
    case Violation::Kind::BadMessage: break;
  }
  return fmt::format("slot {}: {}: {}", v.first.slot, msg_text(v.first), v.text);
}

std::string format_check(const CheckResult& r, int limit) {
  std::string s;
  const int shown = std::min<int>(limit, static_cast<int>(r.violations.size()));
  for (int i = 0; i < shown; ++i) s += "  " + format_violation(r.violations[Idx(i)]) + "\n";
  if (shown < static_cast<int>(r.violations.size())) s += fmt::format("  ... and {} more\n", r.violations.size() - Idx(shown));
  const long long pairs = static_cast<long long>(r.nics.size()) * (static_cast<long long>(r.nics.size()) - 1);
  const int bad = static_cast<int>(r.violations.size()) - r.conflicts() - r.missing();
  s += fmt::format("conflict-free: {}; dependency: {}{}\n", r.conflicts() ? fmt::format("no ({} conflicts)", r.conflicts()) : "yes",
                   r.missing() ? fmt::format("no ({} of {} ordered pairs missing)", r.missing(), pairs) : fmt::format("yes ({} ordered pairs)", pairs),
                   bad ? fmt::format("; {} bad messages", bad) : "");
  s += r.ok() ? "verdict: synchronizing schedule\n" : "verdict: NOT a synchronizing schedule\n";
  return s;
}

}  // namespace sanvp::fbs
