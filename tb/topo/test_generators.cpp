// Generator invariants over many seeds: port budgets, node counts, connectivity f within
// rounding, connected, reproducible from the seed.
#include <catch2/catch.hpp>
#include <deque>
#include <fmt/format.h>
#include <set>

#include "tb/topo/topo_test_util.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {
int used_ports(const Topology& t) { return static_cast<int>(t.nodes.size() + 2 * t.links.size()); }
void check_ports_and_connected(const Topology& t) {
  std::vector<int> used(t.switches.size(), 0);
  for (const auto& n : t.nodes) ++used[n.sw];
  for (const auto& l : t.links) { ++used[l.sw_a]; ++used[l.sw_b]; REQUIRE(l.sw_a != l.sw_b); }
  for (std::size_t s = 0; s < t.switches.size(); ++s) REQUIRE(used[s] <= t.switches[s].ports);
  std::vector<std::vector<int>> adj(t.switches.size());
  for (const auto& l : t.links) { adj[l.sw_a].push_back(l.sw_b); adj[l.sw_b].push_back(l.sw_a); }
  std::vector<char> seen(t.switches.size(), 0);
  std::deque<int> q{0};
  seen[0] = 1;
  std::size_t count = 1;
  while (!q.empty()) {
    int s = q.front();
    q.pop_front();
    for (int nb : adj[s]) if (!seen[nb]) { seen[nb] = 1; ++count; q.push_back(nb); }
  }
  REQUIRE(count == t.switches.size());
}
}  // namespace

TEST_CASE("irregular: BTIN configurations hold their invariants over many seeds") {
  struct Cfg { int q, p; double f; int seeds; };
  for (Cfg c : {Cfg{75, 256, 0.75, 40}, Cfg{300, 1024, 0.75, 5}, Cfg{75, 256, 0.9, 20}, Cfg{20, 40, 0.6, 40}}) {
    for (int seed = 1; seed <= c.seeds; ++seed) {
      INFO(fmt::format("q={} p={} f={} seed={}", c.q, c.p, c.f, seed));
      Topology t = gen("irregular", {{"switches", std::to_string(c.q)}, {"nodes", std::to_string(c.p)},
                                     {"ports", "8"}, {"f", fmt::format("{}", c.f)}, {"seed", std::to_string(seed)}});
      REQUIRE(t.switches.size() == static_cast<std::size_t>(c.q));
      REQUIRE(t.nodes.size() == static_cast<std::size_t>(c.p));
      check_ports_and_connected(t);
      // f = connected ports / all ports, off by at most the rounding to whole links.
      const double f = static_cast<double>(used_ports(t)) / (8.0 * c.q);
      REQUIRE(std::abs(f - c.f) <= 2.0 / (8.0 * c.q) + 1e-12);
      // No parallel links.
      std::set<std::pair<int, int>> pairs;
      for (const auto& l : t.links) REQUIRE(pairs.emplace(std::min(l.sw_a, l.sw_b), std::max(l.sw_a, l.sw_b)).second);
    }
  }
}

TEST_CASE("irregular: the same seed gives the same network, another seed another") {
  auto make = [](int seed) {
    return gen("irregular", {{"switches", "75"}, {"nodes", "256"}, {"f", "0.75"}, {"seed", std::to_string(seed)}}).to_yaml();
  };
  REQUIRE(make(7) == make(7));
  REQUIRE(make(7) != make(8));
}

TEST_CASE("irregular: infeasible requests are refused with the reason") {
  // BTIN's f = 0.5 with 256 nodes on 75 8-port switches: 300 ports, 44 left for 22 links < 74.
  std::string e = error_of([] { gen("irregular", {{"switches", "75"}, {"nodes", "256"}, {"f", "0.5"}}); });
  REQUIRE_THAT(e, Catch::Contains("test: f: f=0.5 too small to connect 75 switches"));
  REQUIRE_THAT(e, Catch::Contains("22 links"));
  REQUIRE_THAT(e, Catch::Contains("at least 74 links"));
  REQUIRE_THAT(error_of([] { gen("irregular", {{"switches", "4"}, {"nodes", "40"}}); }), Catch::Contains("do not fit"));
  REQUIRE_THAT(error_of([] { gen("irregular", {{"switches", "3"}, {"nodes", "0"}, {"f", "1"}}); }), Catch::Contains("too large"));
  REQUIRE_THAT(error_of([] { gen("irregular", {{"q", "3"}}); }), Catch::Contains("unknown key 'q'"));
  REQUIRE_THAT(error_of([] { gen("ring", {}); }), Catch::Contains("unknown generator 'ring'"));
}

TEST_CASE("tree: k-port switches, m levels, one uplink per switch (FBS)") {
  for (int k : {4, 8}) {
    for (int m : {2, 3, 4}) {
      INFO(fmt::format("k={} m={}", k, m));
      Topology t = gen("tree", {{"ports", std::to_string(k)}, {"levels", std::to_string(m)}});
      // FBS 5.2: up to k*(k-1)^(m-2) hosts.
      int hosts = k;
      for (int i = 0; i < m - 2; ++i) hosts *= k - 1;
      REQUIRE(static_cast<int>(t.nodes.size()) == hosts);
      check_ports_and_connected(t);
      REQUIRE(t.links.size() == t.switches.size() - 1);  // a tree
      // Every switch but the root has exactly one link towards the root.
      std::vector<int> ups(t.switches.size(), 0);
      for (const auto& l : t.links) ++ups[std::max(l.sw_a, l.sw_b)];  // children have higher ids (BFS numbering)
      for (std::size_t s = 1; s < t.switches.size(); ++s) REQUIRE(ups[s] == 1);
    }
  }
  REQUIRE(gen("tree", {{"ports", "8"}, {"levels", "4"}}).nodes.size() == 392);  // FBS: 392 hosts
  // FBS Figure 2: 8 NICs under a binary tree of 4 levels.
  Topology fig2 = gen("tree", {{"ports", "4"}, {"levels", "4"}, {"fanout", "2"}, {"root_fanout", "2"}});
  REQUIRE(fig2.nodes.size() == 8);
  REQUIRE(fig2.switches.size() == 7);
  REQUIRE(fig2.nodes[0].sw == fig2.nodes[1].sw);
  REQUIRE(fig2.nodes[1].sw != fig2.nodes[2].sw);
  REQUIRE_THAT(error_of([] { gen("tree", {{"ports", "4"}, {"fanout", "4"}}); }), Catch::Contains("fanout 4 plus one uplink"));
}

TEST_CASE("mesh, single, star and the TDMA networks have their shapes") {
  Topology m = gen("mesh", {{"rows", "3"}, {"cols", "4"}, {"nodes", "2"}});
  REQUIRE(m.switches.size() == 12);
  REQUIRE(m.nodes.size() == 24);
  REQUIRE(m.links.size() == 3 * 3 + 4 * 2);
  check_ports_and_connected(m);
  REQUIRE(gen("single", {{"ports", "16"}}).nodes.size() == 16);
  REQUIRE(gen("single", {{"ports", "8"}, {"nodes", "3"}}).nodes.size() == 3);
  Topology star = gen("star", {});
  REQUIRE(star.switches.size() == 1);
  REQUIRE(star.nodes.size() == 16);
  REQUIRE(star.switches[0].ports == 16);
  Topology a = gen("tdma-a", {}), b = gen("tdma-b", {});
  REQUIRE(a.nodes.size() == 4);
  REQUIRE(a.links.size() == 1);
  REQUIRE(b.links.size() == 2);
  REQUIRE(a.nodes[1].sw == 0);
  REQUIRE(a.nodes[2].sw == 1);
  REQUIRE_THAT(error_of([] { gen("mesh", {{"ports", "4"}}); }), Catch::Contains("need 5 ports"));
}
