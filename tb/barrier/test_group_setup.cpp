// BTIN group setup: BFS by switch id, pruning, root selection tie-breaks, Setup_Register run by
// every member independently, remote setup of non-member intermediate switches, deployment with
// register exhaustion falling back to node memory, teardown; checked for synchronization on the
// functional BTIN network.
#include <catch2/catch.hpp>
#include <algorithm>
#include <set>

#include "platform/barrier/functional_net.hpp"
#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/paper_example.hpp"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"

using namespace sanvp::barrier;
using sanvp::Time;

namespace {

std::vector<char> member_mask(const SwitchGraph& g, const std::vector<NodeAddr>& members) {
  std::vector<char> m(static_cast<std::size_t>(g.switches()), 0);
  for (const auto& n : members) m[static_cast<std::size_t>(n.sw)] = 1;
  return m;
}
std::uint64_t bits(std::initializer_list<int> ports) {
  std::uint64_t m = 0;
  for (int p : ports) m |= std::uint64_t{1} << p;
  return m;
}
// Links switches in the given order, each on the next free port of both ends.
SwitchGraph chain_graph(int switches, const std::vector<std::pair<int, int>>& links, int ports = 8) {
  SwitchGraph g(switches, ports);
  std::vector<int> next(static_cast<std::size_t>(switches), 0);
  for (auto [a, b] : links) g.add_link(a, next[static_cast<std::size_t>(a)]++, b, next[static_cast<std::size_t>(b)]++);
  for (int s = 0; s < switches; ++s) g.add_node(s, next[static_cast<std::size_t>(s)]++);
  return g;
}
std::vector<NodeAddr> nodes_on(const SwitchGraph& g, std::initializer_list<int> sws) {
  std::vector<NodeAddr> v;
  for (int s : sws) v.push_back({s, g.nodes(s).front()});
  return v;
}

// A random connected graph: a random spanning tree plus extra links, nodes on the free ports.
SwitchGraph random_graph(sanvp::Rng& rng, int switches, int extra, int ports = 8) {
  SwitchGraph g(switches, ports);
  std::vector<int> next(static_cast<std::size_t>(switches), 0);
  auto link = [&](int a, int b) {
    if (next[static_cast<std::size_t>(a)] >= ports - 1 || next[static_cast<std::size_t>(b)] >= ports - 1) return false;
    g.add_link(a, next[static_cast<std::size_t>(a)]++, b, next[static_cast<std::size_t>(b)]++);
    return true;
  };
  for (int s = 1; s < switches; ++s)
    while (!link(s, static_cast<int>(rng.below(static_cast<std::uint64_t>(s))))) {}
  for (int i = 0; i < extra; ++i) {
    const int a = static_cast<int>(rng.below(static_cast<std::uint64_t>(switches)));
    const int b = static_cast<int>(rng.below(static_cast<std::uint64_t>(switches)));
    if (a != b) link(a, b);
  }
  for (int s = 0; s < switches; ++s)
    for (int p = next[static_cast<std::size_t>(s)]; p < ports; ++p)
      if (rng.below(3) != 0) g.add_node(s, p);
  return g;
}
std::vector<NodeAddr> random_members(sanvp::Rng& rng, const SwitchGraph& g, int n) {
  std::vector<NodeAddr> all;
  for (int s = 0; s < g.switches(); ++s)
    for (int p : g.nodes(s)) all.push_back({s, p});
  for (std::size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.below(i)]);
  all.resize(std::min<std::size_t>(all.size(), static_cast<std::size_t>(n)));
  return all;
}

}  // namespace

TEST_CASE("BFS scans switches by id: lowest-id parent one level up, lowest port among parallel links") {
  // 0 - 1, 0 - 2, 1 - 3, 2 - 3, and two parallel links 2 - 4.
  SwitchGraph g(5, 8);
  g.add_link(0, 0, 1, 0);
  g.add_link(0, 1, 2, 0);
  g.add_link(2, 1, 3, 0);  // 2 comes first in port order on 3 ... but 1 has the lower id
  g.add_link(1, 1, 3, 1);
  g.add_link(2, 5, 4, 3);
  g.add_link(2, 2, 4, 1);
  const BfsTree t = bfs_tree(g, 0);
  CHECK(t.parent == std::vector<int>{-1, 0, 0, 1, 2});
  CHECK(t.depth == std::vector<int>{0, 1, 1, 2, 2});
  CHECK(t.down_port[3] == 1);  // port of switch 1 towards 3
  CHECK(t.up_port[3] == 1);    // port of switch 3 towards 1
  CHECK(t.down_port[4] == 2);  // lower of the two parallel ports of switch 2
  CHECK(t.up_port[4] == 1);
}

TEST_CASE("pruning removes non-member leaf switches until none is left, keeps intermediate ones") {
  // 0 - 1 - 2 - 3 - 4 (path), members on 0 and 2: 3 and 4 go, 1 stays as an intermediate.
  SwitchGraph g = chain_graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const Btin b = build_btin(g, 0, std::vector<char>{1, 0, 1, 0, 0});
  CHECK(b.switches() == std::vector<int>{0, 1, 2});
  CHECK(b.height == 2);
  CHECK(b.edges == 2);
  CHECK(b.childless == 1);
}

TEST_CASE("root selection: minimum height first") {
  // Path 0-1-2-3-4 with members everywhere: only the middle switch has height 2.
  SwitchGraph g = chain_graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const auto sel = select_root(g, std::vector<char>(5, 1));
  CHECK(sel.root == 2);
  CHECK(sel.candidates.size() == 5);
  CHECK(sel.candidates[0].height == 4);
  CHECK(sel.candidates[2].height == 2);
}

TEST_CASE("root selection: a full tie (height, edges, leaves) goes to the lowest switch id") {
  // Members on 1 and 2, joined only through non-member 0: both roots give height 2, 2 edges and
  // one leaf by either reading.
  SwitchGraph g = chain_graph(3, {{0, 1}, {0, 2}});
  const auto sel = select_root(g, member_mask(g, nodes_on(g, {1, 2})));
  REQUIRE(sel.candidates.size() == 2);
  for (const auto& c : sel.candidates) {
    CHECK(c.height == 2);
    CHECK(c.edges == 2);
    CHECK(c.leaves == 1);
  }
  CHECK(sel.root == 1);
  const auto sel2 = select_root(g, member_mask(g, nodes_on(g, {1, 2})), LeafRule::Childless);
  CHECK(sel2.root == 1);
}

TEST_CASE("root selection: equal height, fewer edges beats more edges") {
  // Members on 0, 2, 4. Root 2 reaches 0 via 1 and 4 via 3: height 2, 4 edges. With the direct
  // link 0-4, root 0 reaches 4 at depth 1 and 2 via 1 (height 2, 3 edges), root 4 likewise
  // (0 at depth 1, 2 via 3): 0 and 4 beat 2 on edges, and tie; 0 has the lower id.
  SwitchGraph g = chain_graph(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {5, 4}, {2, 6}, {6, 4}, {0, 4}});
  const auto sel = select_root(g, member_mask(g, nodes_on(g, {0, 2, 4})));
  const auto& c = sel.candidates;
  REQUIRE(c.size() == 3);
  CHECK((c[0].height == 2 && c[1].height == 2 && c[2].height == 2));
  CHECK(c[1].edges == 4);
  CHECK(c[0].edges == 3);
  CHECK(c[2].edges == 3);
  CHECK(sel.root == 0);
}

TEST_CASE("paper Figures 1-3: three roots of height 2 tie on edges, switch 3 wins with two leaves") {
  const PaperExample ex = paper_figure1();
  CHECK(ex.graph.link_count() == 12);
  CHECK(ex.nodes.size() == 26);
  CHECK(ex.members.size() == 14);
  const auto sel = select_root(ex.graph, member_mask(ex.graph, ex.members), LeafRule::DeepestLevel);
  CHECK(sel.root == 3);
  std::vector<int> tied;
  for (const auto& c : sel.candidates)
    if (c.height == 2) tied.push_back(c.sw);
  CHECK(tied == std::vector<int>{3, 6, 7});
  for (const auto& c : sel.candidates) {
    if (c.height != 2) continue;
    CHECK(c.edges == 6);
    CHECK(c.leaves == (c.sw == 3 ? 2 : 4));
  }
  // Figure 2's BTIN.
  const Btin& t = sel.tree;
  CHECK(t.children[3] == std::vector<int>{0, 1, 6, 7});
  CHECK(t.children[1] == std::vector<int>{4, 5});
  CHECK(t.switches() == std::vector<int>{0, 1, 3, 4, 5, 6, 7});
  CHECK_FALSE(t.member[1]);
  // With leaves read as childless switches, the same rule picks switch 6 (docs/btin.md).
  const auto alt = select_root(ex.graph, member_mask(ex.graph, ex.members), LeafRule::Childless);
  CHECK(alt.root == 6);
}

TEST_CASE("paper example: register contents, root node (3,4), remote setup of switch 1") {
  const PaperExample ex = paper_figure1();
  const GroupPlan plan = plan_group(ex.graph, ex.members, 77);
  CHECK(plan.root == 3);
  CHECK(plan.root_node == NodeAddr{3, 4});
  REQUIRE(plan.writes.size() == 7);
  // Root switch: P = root node's port; C = links to 0, 1, 6, 7 (ports 0..3) and members 4, 6.
  const auto& w3 = plan.write_for(3);
  CHECK(w3.cmd.op == ConfigOp::Alloc);
  CHECK(w3.cmd.gid == 77);
  CHECK(w3.cmd.parent == 4);
  CHECK(w3.cmd.cmask == bits({0, 1, 2, 3, 4, 6}));
  CHECK(w3.writer == NodeAddr{3, 4});
  // Non-member intermediate switch 1: links to 3 (port 0), 4 (1), 5 (2); set up on request.
  const auto& w1 = plan.write_for(1);
  CHECK(w1.remote);
  CHECK(w1.cmd.parent == 0);
  CHECK(w1.cmd.cmask == bits({0, 1, 2}));
  CHECK(w1.writer == NodeAddr{1, 3});         // lowest-port node of switch 1
  CHECK(w1.requested_by == NodeAddr{3, 4});   // by the representative of switch 3
  // Leaf switch 4: links to 1 (port 0), 2, 8; members on 3 and 4.
  const auto& w4 = plan.write_for(4);
  CHECK(w4.cmd.parent == 0);
  CHECK(w4.cmd.cmask == bits({0, 3, 4}));
  CHECK(w4.writer == NodeAddr{4, 3});
}

TEST_CASE("Setup_Register: every member computes independently, all reach the same tree") {
  const PaperExample ex = paper_figure1();
  sanvp::Rng rng(11, "test.setup_register");
  std::vector<RegisterWrite> all;
  int representatives = 0;
  for (const auto& local : ex.members) {
    auto members = ex.members;  // each member may know the list in another order
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[rng.below(i)]);
    const LocalSetup ls = setup_register(ex.graph, members, local, 5);
    CHECK(ls.root == 3);
    CHECK(ls.root_node == NodeAddr{3, 4});
    if (!ls.representative) {
      CHECK_FALSE(ls.own);
      CHECK(ls.remote.empty());
      continue;
    }
    ++representatives;
    CHECK(ls.own->writer == local);
    all.push_back(*ls.own);
    all.insert(all.end(), ls.remote.begin(), ls.remote.end());
  }
  CHECK(representatives == 6);
  std::multiset<int> sws;
  for (const auto& w : all) sws.insert(w.sw);
  CHECK(sws == std::multiset<int>{0, 1, 3, 4, 5, 6, 7});  // each BTIN switch exactly once

  // The same on random networks: the union of independent computations is the plan.
  for (int trial = 0; trial < 40; ++trial) {
    const SwitchGraph g = random_graph(rng, 6 + static_cast<int>(rng.below(30)), static_cast<int>(rng.below(20)));
    const auto members = random_members(rng, g, 2 + static_cast<int>(rng.below(40)));
    if (members.size() < 2) continue;
    const GroupPlan plan = plan_group(g, members, 9);  // throws if members disagree or overlap
    std::set<int> in_plan;
    for (const auto& w : plan.writes) in_plan.insert(w.sw);
    const auto sw = plan.tree.switches();
    CHECK(in_plan == std::set<int>(sw.begin(), sw.end()));
  }
}

TEST_CASE("bad member lists are user errors") {
  const PaperExample ex = paper_figure1();
  CHECK_THROWS_AS(plan_group(ex.graph, {{3, 4}}, 1), sanvp::UserError);
  CHECK_THROWS_AS(plan_group(ex.graph, {{3, 4}, {3, 4}}, 1), sanvp::UserError);
  CHECK_THROWS_AS(plan_group(ex.graph, {{3, 4}, {3, 0}}, 1), sanvp::UserError);  // port 0 is a link
  SwitchGraph split(2, 8);
  split.add_node(0, 0);
  split.add_node(1, 0);
  CHECK_THROWS_AS(plan_group(split, {{0, 0}, {1, 0}}, 1), sanvp::UserError);
  CHECK_THROWS_AS(split.add_node(0, 0), sanvp::UserError);
}

TEST_CASE("functional BTIN: paper example synchronizes in 2*L(h+2) over 2*(edges+n) links") {
  const PaperExample ex = paper_figure1();
  const GroupPlan plan = plan_group(ex.graph, ex.members, 1);
  const LatencyParams p;  // the paper's t_s, t_p, t_r
  FunctionalBtinNet net(ex.graph, std::vector<int>(9, 4), p);
  const Deployment d = net.create(plan);
  CHECK(d.fallbacks == 0);
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto r = net.run({&plan}, {}, seed);
    const int h = plan.tree.height;
    const Time one = p.t_s + static_cast<Time>(h + 2) * p.t_p + static_cast<Time>(h + 3) * p.t_r;
    CHECK(r[0].latency == 2 * one);
    CHECK(r[0].links == 2u * static_cast<unsigned>(plan.tree.edges + 14));
    CHECK(r[0].released.size() == 14);
    CHECK(r[0].software_messages == 0);
  }
  net.destroy(plan);
  for (int s = 0; s < 9; ++s) CHECK(net.core(s).busy_mask() == 0);
}

TEST_CASE("register exhaustion falls back to a member node's memory and still synchronizes") {
  const PaperExample ex = paper_figure1();
  const LatencyParams p;
  // Switch 1 (non-member intermediate) and switch 4 (member leaf) have no register left.
  std::vector<int> regs(9, 2);
  regs[1] = 0;
  regs[4] = 0;
  FunctionalBtinNet net(ex.graph, regs, p);
  const GroupPlan plan = plan_group(ex.graph, ex.members, 3);
  const Deployment d = net.create(plan);
  CHECK(d.fallbacks == 2);
  CHECK_FALSE(d.at(1).in_switch);
  CHECK(d.at(1).memory_node == NodeAddr{1, 3});
  CHECK_FALSE(d.at(4).in_switch);
  CHECK(d.at(4).memory_node == NodeAddr{4, 3});  // representative member node of switch 4
  CHECK(d.report().find("switch 4: no free barrier register") != std::string::npos);
  const auto r = net.run({&plan}, {}, 7);
  CHECK(r[0].released.size() == 14);
  CHECK(r[0].software_messages > 0);
  FunctionalBtinNet hw(ex.graph, std::vector<int>(9, 2), p);
  const GroupPlan plan2 = plan_group(ex.graph, ex.members, 4);
  hw.create(plan2);
  const auto r2 = hw.run({&plan2}, {}, 7);
  CHECK(r[0].latency > r2[0].latency);  // slower, as the paper says
  CHECK(r[0].links > r2[0].links);
  net.destroy(plan);
}

TEST_CASE("functional BTIN on random networks: concurrent groups, scarce registers, random arrivals, re-use") {
  sanvp::Rng rng(2026, "test.functional_btin");
  const LatencyParams p;
  for (int trial = 0; trial < 25; ++trial) {
    const SwitchGraph g = random_graph(rng, 5 + static_cast<int>(rng.below(40)), static_cast<int>(rng.below(30)));
    std::vector<int> regs(static_cast<std::size_t>(g.switches()));
    for (auto& r : regs) r = static_cast<int>(rng.below(3));  // 0..2: exhaustion is common
    FunctionalBtinNet net(g, regs, p);
    for (int round = 0; round < 3; ++round) {
      std::vector<GroupPlan> plans;
      for (int k = 0; k < 4; ++k) {
        const auto members = random_members(rng, g, 2 + static_cast<int>(rng.below(30)));
        if (members.size() < 2) continue;
        plans.push_back(plan_group(g, members, static_cast<std::uint8_t>(round * 16 + k)));
      }
      std::vector<const GroupPlan*> ptrs;
      std::vector<std::map<NodeAddr, Time>> arrivals;
      for (const auto& pl : plans) {
        net.create(pl);
        ptrs.push_back(&pl);
        std::map<NodeAddr, Time> a;
        for (const auto& m : pl.members) a[m] = rng.below(20) * sanvp::kUs;
        arrivals.push_back(a);
      }
      for (int episode = 0; episode < 2; ++episode) {
        const auto r1 = net.run(ptrs, arrivals, rng.next());
        const auto r2 = net.run(ptrs, arrivals, rng.next());  // other tie order, same outcome
        for (std::size_t i = 0; i < plans.size(); ++i) {
          CHECK(r1[i].released.size() == plans[i].members.size());
          CHECK(r1[i].latency == r2[i].latency);
          CHECK(r1[i].links == r2[i].links);
        }
      }
      for (const auto& pl : plans) net.destroy(pl);
      for (int s = 0; s < g.switches(); ++s) CHECK(net.core(s).free_registers() == std::max(regs[static_cast<std::size_t>(s)], 1) - (regs[static_cast<std::size_t>(s)] == 0));
    }
  }
}
