// BTIN experiments on the topology layer: up*/down* paths of the baselines, the three schemes on
// a hand-made network (closed forms from the parameters), and the random-network experiment
// (deterministic, BTIN on the functional network equal to 2*L(h+2) on every run).
#include <catch2/catch.hpp>
#include <cstdlib>

#include "platform/barrier/experiment.hpp"
#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/topo_graph.hpp"
#include "platform/topo/routing.hpp"

using namespace sanvp;
using namespace sanvp::barrier;

TEST_CASE("up*/down* paths from one switch are the route table's paths") {
  const Topology t = irregular_network(128, 40, 8, 0.75, 9);
  const RouteTable rt = updown_routes(t);
  for (int from : {0, 7, 39}) {
    const UpDownPaths p = updown_paths(t, from);
    int src = -1;
    for (const auto& n : t.nodes)
      if (n.sw == from) { src = n.id; break; }
    REQUIRE(src >= 0);
    for (const auto& n : t.nodes) {
      if (n.id == src) continue;
      const auto r = rt.vec(src, n.id);
      const auto& hops = p.hops[static_cast<std::size_t>(n.sw)];
      REQUIRE(r.size() == hops.size() + 1);
      CHECK(p.dist[static_cast<std::size_t>(n.sw)] == static_cast<int>(hops.size()));
      for (std::size_t i = 0; i < hops.size(); ++i) CHECK(hops[i].second == r[i]);
      CHECK(r.back() == n.port);
    }
  }
}

TEST_CASE("three schemes on a chain of three switches: closed forms from t_s, t_p, t_r, t_root") {
  // sw0 - sw1 - sw2 (port 7 to port 6); members n0 (sw0.p0), n1 (sw2.p0), n2 (sw2.p1); n3 on sw1.
  Topology t;
  for (int s = 0; s < 3; ++s) t.switches.push_back(TopoSwitch{s, 8, {}, {}, {}});
  const int at[4][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 0}};
  for (int n = 0; n < 4; ++n) {
    TopoNode x;
    x.id = n;
    x.sw = at[n][0];
    x.port = at[n][1];
    t.nodes.push_back(x);
  }
  for (int s = 0; s < 2; ++s) {
    TopoLink l;
    l.sw_a = s;
    l.port_a = 7;
    l.sw_b = s + 1;
    l.port_b = 6;
    t.links.push_back(l);
  }
  t.validate();
  const TopoGraph tg(t);
  ExperimentConfig c;
  c.lat.t_s = 3 * kUs;
  c.lat.t_p = 25 * kNs;
  c.lat.t_r = 200 * kNs;
  c.lat.t_root = 150 * kNs;
  const RunSample s = measure_group(c, t, tg, {{0, 0}, {2, 0}, {2, 1}}, 1);
  const auto L = [&](int d) { return c.lat.t_s + static_cast<Time>(d) * c.lat.t_p + static_cast<Time>(d + 1) * c.lat.t_r; };
  // Root switch 0 (height 2 ties with switch 2 on edges and leaves; lowest id), root node n0.
  CHECK(s.height == 2);
  CHECK(s.btin == 2 * L(4));
  CHECK(s.links_btin == 2 * (2 + 3));
  // Unicast: two REDUCEs over 4 links, served one after the other at the root; then two
  // unicasts back to back (one start-up each).
  CHECK(s.unicast == L(4) + 2 * c.lat.t_root + c.lat.t_s + L(4));
  CHECK(s.links_unicast == 2 * (4 + 4));
  // Multicast: the same reduction, then one worm over sw0->sw1->sw2 replicated to p0 and p1.
  CHECK(s.multicast == L(4) + 2 * c.lat.t_root + L(4));
  CHECK(s.mc_links == 5);
  CHECK(s.links_multicast == 8 + 5);
}

TEST_CASE("random-network experiment: deterministic, BTIN beats the baselines for large groups") {
  ExperimentConfig c;
  c.runs = 5;
  c.sizes = {2, 32, 256};
  const auto a = run_experiment(c), b = run_experiment(c);
  REQUIRE(a.config_error.empty());
  CHECK(experiment_csv(a) == experiment_csv(b));
  REQUIRE(a.samples.size() == 15);
  for (const auto& s : a.samples) {
    CHECK(s.btin == 2 * (c.lat.t_s + static_cast<Time>(s.height + 2) * c.lat.t_p + static_cast<Time>(s.height + 3) * c.lat.t_r));
    CHECK(s.links_btin == 2 * static_cast<std::uint64_t>(s.tree_edges + s.size));
    CHECK(s.multicast <= s.unicast);
    if (s.size >= 32) {
      CHECK(s.btin < s.multicast);
      CHECK(s.links_btin < s.links_multicast);
    }
  }
  // 256 of 256 nodes: every switch holds a member, so the BTIN spans all 75 switches.
  CHECK(a.samples.back().tree_switches == 75);
}

TEST_CASE("experiment: an infeasible connectivity is reported, not run") {
  ExperimentConfig c;
  c.f = 0.5;
  c.runs = 2;
  const auto r = run_experiment(c);
  CHECK(r.samples.empty());
  CHECK(r.config_error.find("f=0.5 too small to connect 75 switches") != std::string::npos);
}

TEST_CASE("sanvp btin experiment writes CSV and JSON, bad input exits 2") {
  const std::string dir = SANVP_BINARY_DIR "/tb/barrier";
  const std::string cmd = std::string(SANVP_BIN) + " btin experiment --runs 2 --sizes 2,8 --csv " + dir + "/exp_test.csv --json " +
                          dir + "/exp_test.json > " + dir + "/exp_test.out 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
  const std::string bad = std::string(SANVP_BIN) + " btin experiment --f 0.5 --runs 1 > /dev/null 2>&1";
  CHECK(WEXITSTATUS(std::system(bad.c_str())) == 2);
  const std::string bad2 = std::string(SANVP_BIN) + " btin experiment --sizes 1 --runs 1 > /dev/null 2>&1";
  CHECK(WEXITSTATUS(std::system(bad2.c_str())) == 2);
}

TEST_CASE("the experiments' setup computed once equals every member's Setup_Register") {
  const Topology t = irregular_network(128, 40, 8, 0.75, 21);
  const TopoGraph tg(t);
  for (int run = 0; run < 6; ++run) {
    const auto members = random_group(tg, 4 << run, 3, run);
    const GroupPlan a = plan_group(tg.graph, members, 4, LeafRule::DeepestLevel, PlanCheck::EveryMember);
    const GroupPlan b = plan_group(tg.graph, members, 4, LeafRule::DeepestLevel, PlanCheck::Representatives);
    CHECK(a.root == b.root);
    CHECK(a.root_node == b.root_node);
    REQUIRE(a.writes.size() == b.writes.size());
    for (std::size_t i = 0; i < a.writes.size(); ++i) {
      CHECK(a.writes[i].sw == b.writes[i].sw);
      CHECK(a.writes[i].cmd.parent == b.writes[i].cmd.parent);
      CHECK(a.writes[i].cmd.cmask == b.writes[i].cmd.cmask);
      CHECK(a.writes[i].writer == b.writes[i].writer);
      CHECK(a.writes[i].remote == b.writes[i].remote);
    }
  }
}

TEST_CASE("root selection's candidate figures equal the BTIN built around each candidate") {
  const Topology t = irregular_network(96, 30, 8, 0.8, 8);
  const TopoGraph tg(t);
  for (int run = 0; run < 5; ++run) {
    const auto members = random_group(tg, 3 << run, 5, run);
    std::vector<char> member(static_cast<std::size_t>(tg.graph.switches()), 0);
    for (const auto& m : members) member[static_cast<std::size_t>(m.sw)] = 1;
    for (LeafRule rule : {LeafRule::DeepestLevel, LeafRule::Childless}) {
      const RootSelection sel = select_root(tg.graph, member, rule);
      REQUIRE(!sel.candidates.empty());
      for (const auto& c : sel.candidates) {
        const Btin b = build_btin(tg.graph, c.sw, member);
        CHECK(c.height == b.height);
        CHECK(c.edges == b.edges);
        CHECK(c.leaves == b.leaves(rule));
      }
    }
  }
}
