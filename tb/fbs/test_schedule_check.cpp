// The checker: conflict-freedom (both messages and the link named) and the dependency
// requirement (missing precedences named, TIMEs strictly increasing), on hand-made schedules and
// on SSS/HSS over single switches, trees and uneven or cyclic networks.
#include <catch2/catch.hpp>

#include "platform/fbs/schedule.hpp"
#include "platform/fbs/schedule_check.hpp"
#include "platform/topo/topo_loader.hpp"
#include "tb/fbs/fbs_test_util.hpp"

using namespace sanvp;
using namespace sanvp::fbs;

namespace {

std::vector<Violation> of_kind(const CheckResult& r, Violation::Kind k) {
  std::vector<Violation> v;
  for (const auto& x : r.violations)
    if (x.kind == k) v.push_back(x);
  return v;
}

}  // namespace

TEST_CASE("SSS on the Figure 2 tree conflicts at slot 7: NIC0=>4 and NIC1=>5", "[fbs][check]") {
  const Topology t = test::figure2();
  const CheckResult r = check_schedule(sss({0, 1, 2, 3, 4, 5, 6, 7}), t, updown_routes(t));
  CHECK_FALSE(r.ok());
  bool named = false;
  for (const auto& v : of_kind(r, Violation::Kind::LinkConflict))
    if (v.first.slot == 7 && v.first.src == 0 && v.first.dst == 4 && v.second.src == 1 && v.second.dst == 5) {
      named = true;
      // Both climb from their leaf switch (sw3, uplink port 2) towards the root.
      CHECK(v.link == "sw3.p2.out");
      CHECK(format_violation(v).find("slot 7: n0=>n4 and n1=>n5 both use link sw3.p2.out") == 0);
    }
  CHECK(named);
  CHECK(r.missing() == 0);  // SSS still satisfies the dependency requirement
}

TEST_CASE("The checker rejects a link conflict and names both messages and the link", "[fbs][check]") {
  const Topology t = test::generate("single", {{"ports", "4"}});
  Schedule s = sss({0, 1, 2, 3});
  s.messages.push_back({2, 3, 3});  // slot 2: 0=>3 is there already; 3=>3 also drives n3's port
  const CheckResult r = check_schedule(s, t, updown_routes(t));
  const auto c = of_kind(r, Violation::Kind::LinkConflict);
  REQUIRE(c.size() == 2);  // 3 sends twice (its own link n3.out) and shares sw0.p3.out with 0=>3
  CHECK(format_check(r).find("slot 2: n0=>n3 and n3=>n3 both use link sw0.p3.out") != std::string::npos);
  CHECK(format_check(r).find("conflict-free: no (2 conflicts)") != std::string::npos);
}

TEST_CASE("The checker names each missing precedence", "[fbs][check]") {
  const Topology t = test::generate("single", {{"ports", "3"}});
  const RouteTable rt = updown_routes(t);
  SECTION("one direct precedence only") {
    const Schedule s{"hand", 2, {{0, 0, 0}, {1, 1, 0}}};  // 0 ->_d 1 at TIME 0
    const CheckResult r = check_schedule(s, t, rt, {0, 1});
    REQUIRE(r.violations.size() == 1);
    CHECK(r.violations[0].kind == Violation::Kind::MissingPrecedence);
    CHECK(r.violations[0].from == 1);
    CHECK(r.violations[0].to == 0);
    CHECK(format_violation(r.violations[0]).find("missing precedence: n1 -> n0") == 0);
  }
  SECTION("a chain needs strictly increasing TIMEs") {
    // TIME 0: 0 ->_d 1 (via NIC0) and 1 ->_d 2 (via NIC1): equal TIMEs do not chain, so 0 -/-> 2.
    const Schedule s{"hand", 2, {{0, 0, 0}, {0, 1, 1}, {1, 1, 0}, {1, 2, 1}}};
    const CheckResult r = check_schedule(s, t, rt);
    CHECK(r.conflicts() == 0);
    bool zero_two = false;
    for (const auto& v : of_kind(r, Violation::Kind::MissingPrecedence)) zero_two = zero_two || (v.from == 0 && v.to == 2);
    CHECK(zero_two);
    // With 1 ->_d 2 one slot later the chain holds.
    const Schedule later{"hand", 3, {{0, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 2, 1}}};
    for (const auto& v : of_kind(check_schedule(later, t, rt), Violation::Kind::MissingPrecedence)) CHECK_FALSE((v.from == 0 && v.to == 2));
  }
}

TEST_CASE("Messages outside the topology are reported, not thrown", "[fbs][check]") {
  const Topology t = test::generate("single", {{"ports", "2"}});
  const Schedule s{"hand", 1, {{0, 0, 5}}};
  const CheckResult r = check_schedule(s, t, updown_routes(t));
  REQUIRE_FALSE(r.violations.empty());
  CHECK(r.violations[0].kind == Violation::Kind::BadMessage);
  CHECK(format_violation(r.violations[0]).find("names a node outside 0..1") != std::string::npos);
}

TEST_CASE("SSS passes on single switches of 2..16 ports", "[fbs][check]") {
  for (int k = 2; k <= 16; ++k) {
    CAPTURE(k);
    const Topology t = test::generate("single", {{"ports", std::to_string(k)}});
    std::vector<int> nics;
    for (int i = 0; i < k; ++i) nics.push_back(i);
    const CheckResult r = check_schedule(sss(nics), t, updown_routes(t));
    CHECK(r.ok());
    CHECK(check_schedule(hss(t), t, updown_routes(t)).ok());
  }
}

TEST_CASE("HSS passes on trees of 2..4 levels of 4- and 8-port switches", "[fbs][check]") {
  for (int k : {4, 8})
    for (int m = 2; m <= 4; ++m) {
      CAPTURE(k, m);
      const Topology t = test::generate("tree", {{"ports", std::to_string(k)}, {"levels", std::to_string(m)}});
      const CheckResult r = check_schedule(hss(t), t, updown_routes(t));
      CHECK(r.ok());
      if (!r.ok()) FAIL(format_check(r, 5));
    }
  const Topology fig2 = test::figure2();
  CHECK(check_schedule(hss(fig2), fig2, updown_routes(fig2)).ok());
}

TEST_CASE("HSS on an uneven tree and on networks with cycles", "[fbs][check]") {
  SECTION("three-switch chain rooted in the middle") {
    const Topology t = load_topology_file(std::string(SANVP_SOURCE_DIR) + "/platform/scenarios/topologies/three-switch-chain.yaml");
    const SpanningTree tr = spanning_tree(t);
    CHECK(tr.root == 1);
    CHECK(tr.levels == 3);
    const Schedule s = hss(tr);
    // Gather: {0,1} and {3,4} at 0..1, leaders {0,2,3} at 2..4; distribute {0,1}, {3,4} at 5..6.
    CHECK(s.slots == 7);
    CHECK(check_schedule(s, t, updown_routes(t)).ok());
  }
  SECTION("mesh and irregular networks, on the spanning tree's routes") {
    for (const Topology& t : {test::generate("mesh", {{"rows", "3"}, {"cols", "3"}, {"nodes", "2"}}),
                              test::generate("irregular", {{"switches", "12"}, {"nodes", "24"}, {"ports", "8"}, {"seed", "3"}})}) {
      const SpanningTree tr = spanning_tree(t);
      const CheckResult r = check_schedule(hss(tr), t, tree_routes(t, tr));
      CHECK(r.ok());
      if (!r.ok()) FAIL(format_check(r, 5));
    }
  }
}

TEST_CASE("Convergence: on Figure 2, slot 5's packet to n0 crosses 5 switches, slot 6's U-turn 1", "[fbs][check]") {
  const Topology t = test::figure2();
  const RouteTable r = updown_routes(t);
  const Convergence c = worst_convergence(hss(t), t, r);
  CHECK(c.extra() == 4);
  CHECK(c.earlier.slot == 5);
  CHECK(c.later.slot == 6);
  CHECK(c.later.src == 0);
  CHECK(c.later.dst == 0);
  CHECK(c.earlier.dst == 0);
  CHECK(format_convergence(c).find("crosses 5 switches to sw3.p0.out, slot 6's n0=>n0 1") != std::string::npos);
  // One switch: every packet reaches its link over the same switch, so nothing converges.
  const Topology one = test::generate("single", {{"ports", "4"}});
  CHECK(worst_convergence(sss({0, 1, 2, 3}), one, updown_routes(one)).extra() == 0);
}

TEST_CASE("Convergence: a hand-made schedule whose later packet comes over more switches does not count", "[fbs][check]") {
  const Topology t = test::figure2();
  Schedule s;
  s.kind = "test";
  s.slots = 2;
  s.messages = {{0, 0, 0}, {1, 4, 0}};  // the U-turn first, the 5-switch packet next: it arrives later anyway
  CHECK(worst_convergence(s, t, updown_routes(t)).extra() == 0);
  s.messages = {{0, 4, 0}, {1, 0, 0}};
  CHECK(worst_convergence(s, t, updown_routes(t)).extra() == 4);
  s.messages = {{0, 4, 0}, {2, 0, 0}};  // not consecutive: the idle slot between them absorbs the difference
  CHECK(worst_convergence(s, t, updown_routes(t)).extra() == 0);
}
