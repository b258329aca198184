// up*/down* routes on random irregular networks: legal, shortest among legal routes, and
// deadlock-free by the channel dependency graph; a hand-made cyclic route set is caught.
#include <catch2/catch.hpp>
#include <deque>
#include <fmt/format.h>

#include "hw/base/rng.hpp"
#include "platform/topo/deadlock.hpp"
#include "platform/topo/routing.hpp"
#include "tb/topo/topo_test_util.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {
// Hops from every switch to every switch using up links only (independent of the router).
std::vector<std::vector<int>> up_distances(const Topology& t, const UpDownTree& u) {
  const auto pm = t.port_map();
  const std::size_t q = t.switches.size();
  std::vector<std::vector<int>> d(q, std::vector<int>(q, -1));
  for (std::size_t s = 0; s < q; ++s) {
    std::deque<int> dq{static_cast<int>(s)};
    d[s][s] = 0;
    while (!dq.empty()) {
      int x = dq.front();
      dq.pop_front();
      for (const auto& e : pm[x])
        if (e.kind == PortEnd::Switch && u.up(x, e.id) && d[s][e.id] < 0) { d[s][e.id] = d[s][x] + 1; dq.push_back(e.id); }
    }
  }
  return d;
}
}  // namespace

// Ring of 4 switches, node i on port 0 of switch i; port 1 goes clockwise to port 2 of the next.
const char* const kRing4 = R"(
switches: 4
nodes: ["0:0", "1:0", "2:0", "3:0"]
links:
  - {a: "0:1", b: "1:2"}
  - {a: "1:1", b: "2:2"}
  - {a: "2:1", b: "3:2"}
  - {a: "3:1", b: "0:2"}
)";

TEST_CASE("up*/down* on 100 random irregular networks: legal, shortest legal, acyclic") {
  Rng pick(2026, "test.networks");
  for (int i = 0; i < 100; ++i) {
    const int q = 4 + static_cast<int>(pick.below(40));
    const int p = q + static_cast<int>(pick.below(static_cast<std::uint64_t>(2 * q)));
    const int k = 8;
    // The smallest feasible f for this (q, p), plus a random margin.
    const double fmin = static_cast<double>(p + 2 * (q - 1)) / (k * q);
    const double fmax = std::min(1.0, static_cast<double>(p + q * (q - 1)) / (k * q));  // no parallel links
    const double f = fmin + pick.uniform01() * (fmax - fmin);
    INFO(fmt::format("network {}: q={} p={} f={}", i, q, p, f));
    Topology t = gen("irregular", {{"switches", std::to_string(q)}, {"nodes", std::to_string(p)}, {"f", fmt::format("{}", f)},
                                   {"seed", std::to_string(i + 1)}});
    const RouteTable rt = updown_routes(t);
    const UpDownTree u = updown_tree(t);
    const auto pm = t.port_map();
    // The up/down orientation comes from a BFS from the lowest switch id: recompute the levels.
    REQUIRE(u.root == 0);
    {
      std::vector<int> lvl(t.switches.size(), -1);
      std::deque<int> dq{0};
      lvl[0] = 0;
      while (!dq.empty()) {
        const int x = dq.front();
        dq.pop_front();
        for (const auto& e : pm[x])
          if (e.kind == PortEnd::Switch && lvl[e.id] < 0) { lvl[e.id] = lvl[x] + 1; dq.push_back(e.id); }
      }
      REQUIRE(u.level == lvl);
    }
    const auto updist = up_distances(t, u);
    for (int s = 0; s < p; ++s)
      for (int d = 0; d < p; ++d) {
        if (s == d) continue;
        const auto r = rt.at(s, d);
        // Legal: walk it; once a hop goes down, no hop may go up; it ends at d.
        int sw = t.nodes[s].sw;
        bool down = false;
        for (std::size_t h = 0; h + 1 < r.size; ++h) {
          const auto& e = pm[sw][r[h]];
          REQUIRE(e.kind == PortEnd::Switch);
          const bool up = u.up(sw, e.id);
          REQUIRE_FALSE((down && up));
          down = down || !up;
          sw = e.id;
        }
        REQUIRE(pm[sw][r[r.size - 1]].kind == PortEnd::Node);
        REQUIRE(pm[sw][r[r.size - 1]].id == d);
        // Shortest legal: up from S to some m, then down from m to D (= up from D to m).
        int best = 1 << 30;
        for (std::size_t m = 0; m < t.switches.size(); ++m) {
          const int a = updist[t.nodes[s].sw][m], b = updist[t.nodes[d].sw][m];
          if (a >= 0 && b >= 0) best = std::min(best, a + b);
        }
        REQUIRE(static_cast<int>(r.size) - 1 == best);
      }
    const DeadlockReport rep = check_deadlock(t, rt);
    REQUIRE(rep.acyclic);
    REQUIRE(rep.cycle.empty());
  }
}

TEST_CASE("a hand-made cyclic route set is caught and its cycle printed") {
  Topology t = load_text(kRing4);
  RouteTable rt = updown_routes(t);
  REQUIRE(check_deadlock(t, rt).acyclic);
  // Every node sends two switches clockwise: n_i -> n_{i+2} through sw_{i+1}.
  for (int i = 0; i < 4; ++i) rt.replace(i, (i + 2) % 4, {1, 1, 0});
  const DeadlockReport rep = check_deadlock(t, rt);
  REQUIRE_FALSE(rep.acyclic);
  REQUIRE(rep.cycle.size() == 4);
  for (std::size_t k = 0; k < rep.cycle.size(); ++k) {
    const auto& e = rep.cycle[k];
    REQUIRE(e.from_port == 1);
    REQUIRE(e.to_port == 1);
    REQUIRE(e.to_sw == (e.from_sw + 1) % 4);
    REQUIRE(rep.cycle[(k + 1) % 4].from_sw == e.to_sw);  // a closed chain
    REQUIRE(e.dst == (e.src + 2) % 4);
  }
  const std::string text = rep.describe(t);
  REQUIRE_THAT(text, Catch::Contains("has a cycle of 4 channels"));
  REQUIRE_THAT(text, Catch::Contains("sw0.p1->sw1"));
  REQUIRE_THAT(text, Catch::Contains("sw3.p1->sw0"));
  // The unrestricted shortest-path router also builds a cycle on this ring.
  REQUIRE_FALSE(check_deadlock(t, shortest_routes(t)).acyclic);
}

TEST_CASE("a route that leaves the network or ends elsewhere is rejected by the checker") {
  Topology t = gen("tdma-a", {});
  RouteTable rt = updown_routes(t);
  REQUIRE(rt.vec(0, 2) == std::vector<std::uint8_t>{2, 0});
  rt.replace(0, 2, {3, 0});
  REQUIRE_THAT(error_of([&] { check_deadlock(t, rt); }), Catch::Contains("route n0->n2 [3 0]: hop 0 leaves switch 0 through unconnected port 3"));
  rt.replace(0, 2, {2, 1});
  REQUIRE_THAT(error_of([&] { check_deadlock(t, rt); }), Catch::Contains("ends at node n3, not n2"));
}

TEST_CASE("up*/down* on every generator family reaches every node and is deadlock-free") {
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> nets{
      {"single", {}}, {"star", {}}, {"tree", {{"ports", "8"}, {"levels", "4"}}}, {"mesh", {{"rows", "4"}, {"cols", "5"}, {"nodes", "2"}}},
      {"tdma-a", {}}, {"tdma-b", {}}, {"irregular", {{"switches", "75"}, {"nodes", "256"}}}};
  for (const auto& [type, args] : nets) {
    INFO(type);
    Topology t = gen(type, args);
    const RouteTable rt = updown_routes(t);
    const auto pm = t.port_map();
    for (int s = 0; s < rt.nodes(); ++s)
      for (int d = 0; d < rt.nodes(); ++d)
        if (s != d) REQUIRE(walk_route(t, pm, s, rt.at(s, d), "test") == d);
    REQUIRE(check_deadlock(t, rt).acyclic);
  }
  // On a tree every shortest path is an up*/down* path: the two routers agree.
  Topology tree = gen("tree", {{"ports", "4"}, {"levels", "4"}});
  const RouteTable a = updown_routes(tree), b = shortest_routes(tree);
  for (int s = 0; s < a.nodes(); ++s)
    for (int d = 0; d < a.nodes(); ++d) REQUIRE(a.vec(s, d) == b.vec(s, d));
}

TEST_CASE("a configured root moves the up*/down* tree") {
  // The ring with root 2: levels from switch 2, and the routes change with it.
  const std::string ring = kRing4;
  const Topology t0 = load_text(ring), t2 = load_text("root: 2\n" + ring);
  REQUIRE(updown_tree(t0).level == std::vector<int>{0, 1, 2, 1});
  const UpDownTree u = updown_tree(t2);
  REQUIRE(u.root == 2);
  REQUIRE(u.level == std::vector<int>{2, 1, 0, 1});
  const RouteTable a = updown_routes(t0), b = updown_routes(t2);
  REQUIRE(check_deadlock(t2, b).acyclic);
  // n1 -> n3: with root 0 the route may not turn down-then-up at sw2 (1->2 is down, 2->3 is up),
  // so it goes up through sw0; with root 2 it goes up into sw2 and down to sw3.
  REQUIRE(a.vec(1, 3) == std::vector<std::uint8_t>{2, 2, 0});
  REQUIRE(b.vec(1, 3) == std::vector<std::uint8_t>{1, 1, 0});
  REQUIRE_THAT(error_of([&] { load_text("root: 4\n" + ring); }), Catch::Contains("root"));
}

namespace {
// Two trunks between sw0 and sw1, and a triangle through sw2; node i on port 0 of switch i.
// Root sw0: sw1 and sw2 are one level down; between them, sw2 -> sw1 goes up (lower id).
const char* const kTwoTrunks = R"(
switches: 3
nodes: ["0:0", "1:0", "2:0"]
links:
  - {a: "0:1", b: "1:1"}
  - {a: "0:2", b: "1:2"}
  - {a: "1:3", b: "2:1"}
  - {a: "0:3", b: "2:2"}
)";

using Routes = std::vector<std::vector<std::uint8_t>>;

// Up*/down* legal: once a hop goes down, no hop goes up. Returns the switch hops.
int legal_hops(const Topology& t, int s, const std::vector<std::uint8_t>& r) {
  const auto pm = t.port_map();
  const UpDownTree u = updown_tree(t);
  int sw = t.nodes[s].sw;
  bool down = false;
  for (std::size_t h = 0; h + 1 < r.size(); ++h) {
    const auto& e = pm[sw][r[h]];
    REQUIRE(e.kind == PortEnd::Switch);
    const bool up = u.up(sw, e.id);
    REQUIRE_FALSE((down && up));
    down = down || !up;
    sw = e.id;
  }
  return static_cast<int>(r.size()) - 1;
}
}  // namespace

TEST_CASE("alternate routes on two trunks: distinct, legal up*/down*, reach the destination, ranked, deadlock-free") {
  const Topology t = load_text(kTwoTrunks);
  const RouteTable rt = updown_routes(t);
  const auto pm = t.port_map();
  AlternateRoutes alt(t, true, 1);
  // The second trunk is the alternate between sw0 and sw1; the detour through sw2 would turn
  // up after down (sw0 -> sw2 down, sw2 -> sw1 up) and is not legal.
  REQUIRE(rt.vec(0, 1) == std::vector<std::uint8_t>{1, 0});
  REQUIRE(alt.routes(0, 1, rt.at(0, 1), 3) == Routes{{2, 0}});
  REQUIRE(alt.routes(1, 0, rt.at(1, 0), 3) == Routes{{2, 0}});
  // From sw2 to sw1 the direct link is primary; up to sw0 and down either trunk is one hop
  // longer, ranked by port.
  REQUIRE(rt.vec(2, 1) == std::vector<std::uint8_t>{1, 0});
  REQUIRE(alt.routes(2, 1, rt.at(2, 1), 3) == Routes{{2, 1, 0}, {2, 2, 0}});
  REQUIRE(alt.routes(2, 1, rt.at(2, 1), 1) == Routes{{2, 1, 0}});
  // No extra hops allowed: only paths as short as the primary.
  AlternateRoutes same_length(t, true, 0);
  REQUIRE(same_length.routes(2, 1, rt.at(2, 1), 3).empty());
  REQUIRE(same_length.routes(0, 1, rt.at(0, 1), 3) == Routes{{2, 0}});
  std::vector<ExtraRoute> extra;
  for (int s = 0; s < 3; ++s)
    for (int d = 0; d < 3; ++d) {
      if (s == d) continue;
      INFO("n" << s << " -> n" << d);
      const auto primary = rt.vec(s, d);
      const Routes a = alt.routes(s, d, rt.at(s, d), 8);
      CHECK(!a.empty());  // every pair of this network has one
      int prev = legal_hops(t, s, primary);
      for (std::size_t k = 0; k < a.size(); ++k) {
        CHECK(a[k] != primary);
        for (std::size_t j = 0; j < k; ++j) CHECK(a[k] != a[j]);
        const int hops = legal_hops(t, s, a[k]);
        CHECK(hops >= prev);                                     // ranked by length
        CHECK(hops <= legal_hops(t, s, primary) + 1);            // at most extra_hops longer
        CHECK(walk_route(t, pm, s, RouteTable::View{a[k].data(), a[k].size()}, "alt") == d);
        prev = hops;
        extra.push_back(ExtraRoute{s, d, a[k]});
      }
    }
  const DeadlockReport rep = check_deadlock(t, rt, extra);
  CHECK(rep.acyclic);
  CHECK(rep.dependencies > check_deadlock(t, rt).dependencies);  // the alternates add dependencies, no cycle
  // Unrestricted routing also offers the detour the up*/down* rule forbids.
  AlternateRoutes any(t, false, 1);
  const RouteTable srt = shortest_routes(t);
  REQUIRE(any.routes(0, 1, srt.at(0, 1), 3) == Routes{{2, 0}, {3, 1, 0}});
}

TEST_CASE("the route to a node itself is the U-turn through its switch, and nodes on one switch have no alternates") {
  const Topology t = load_text(kTwoTrunks);
  const auto pm = t.port_map();
  for (int n = 0; n < 3; ++n) {
    const auto r = self_route(t, n);
    REQUIRE(r == std::vector<std::uint8_t>{0});
    REQUIRE(walk_route(t, pm, n, RouteTable::View{r.data(), r.size()}, "self") == n);
  }
  const Topology star = load_text("switches: 2\nnodes: [\"0:0\", \"0:1\", \"1:0\"]\nlinks:\n  - {a: \"0:7\", b: \"1:7\"}\n");
  AlternateRoutes alt(star, true, 2);
  const RouteTable rt = updown_routes(star);
  CHECK(alt.routes(0, 1, rt.at(0, 1), 4).empty());
  CHECK(alt.routes(1, 0, rt.at(1, 0), 4).empty());
  CHECK(self_route(star, 1) == std::vector<std::uint8_t>{1});
}
