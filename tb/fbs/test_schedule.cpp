// Schedules against the paper: Table 1 (SSS, 8 NICs) and Table 2 (HSS on Figure 2, slot 6
// corrected to 4=>4), both transcribed here; HSS slot counts on full trees (section 5.2).
#include <catch2/catch.hpp>

#include "platform/fbs/schedule.hpp"
#include "platform/fbs/schedule_check.hpp"
#include "tb/fbs/fbs_test_util.hpp"

using namespace sanvp;
using namespace sanvp::fbs;

namespace {

// dst[slot][src], -1 = no message.
using Grid = std::vector<std::vector<int>>;

Grid grid_of(const Schedule& s, int nics) {
  Grid g(static_cast<std::size_t>(s.slots), std::vector<int>(static_cast<std::size_t>(nics), -1));
  for (const auto& m : s.messages) {
    REQUIRE(g[static_cast<std::size_t>(m.slot)][static_cast<std::size_t>(m.src)] == -1);  // one message per NIC and slot
    g[static_cast<std::size_t>(m.slot)][static_cast<std::size_t>(m.src)] = m.dst;
  }
  return g;
}

bool sorted_by_slot_src(const Schedule& s) {
  for (std::size_t i = 1; i < s.messages.size(); ++i) {
    const auto& a = s.messages[i - 1];
    const auto& b = s.messages[i];
    if (a.slot > b.slot || (a.slot == b.slot && a.src >= b.src)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("SSS for 8 NICs equals the paper's Table 1", "[fbs][schedule]") {
  const Grid table1{
      {0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 5, 6, 7, 0}, {3, 4, 5, 6, 7, 0, 1, 2}, {6, 7, 0, 1, 2, 3, 4, 5},
      {2, 3, 4, 5, 6, 7, 0, 1}, {7, 0, 1, 2, 3, 4, 5, 6}, {5, 6, 7, 0, 1, 2, 3, 4}, {4, 5, 6, 7, 0, 1, 2, 3},
  };
  const Schedule s = sss({0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(s.kind == "sss");
  CHECK(s.slots == 8);
  CHECK(s.messages.size() == 64);
  CHECK(sorted_by_slot_src(s));
  CHECK(grid_of(s, 8) == table1);
}

TEST_CASE("BBP starts at its time slot and indexes members in the order given", "[fbs][schedule]") {
  const Schedule s = bbp({10, 20, 30}, 5);
  CHECK(s.first_slot == 5);
  CHECK(s.slots == 3);
  REQUIRE(s.messages.size() == 9);
  // t = 2: i + 3 mod 3 = i: self-sends; t = 1: i + 1.
  CHECK(s.messages[3].slot == 6);
  CHECK(s.messages[3].src == 10);
  CHECK(s.messages[3].dst == 20);
  CHECK(s.messages[8].slot == 7);
  CHECK(s.messages[8].dst == 30);
}

TEST_CASE("HSS on the Figure 2 tree equals Table 2 with slot 6 corrected to 4=>4", "[fbs][schedule]") {
  const int _ = -1;
  const Grid table2{
      {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {0, _, 2, _, 4, _, 6, _}, {2, _, 0, _, 6, _, 4, _},
      {0, _, _, _, 4, _, _, _}, {4, _, _, _, 0, _, _, _}, {0, _, 2, _, 4, _, 6, _},  // slot 6: the paper prints 4=>5
      {2, _, 0, _, 6, _, 4, _}, {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6},
  };
  const Topology t = test::figure2();
  const SpanningTree tree = spanning_tree(t);
  CHECK(tree.levels == 4);
  CHECK(tree.root == 0);
  const Schedule s = hss(t);
  CHECK(s.kind == "hss");
  CHECK(s.slots == 10);
  CHECK(sorted_by_slot_src(s));
  CHECK(grid_of(s, 8) == table2);
  // The steps of Example 2: G(0,1..3) = 0, 2, 4; D(0,2) = 6, D(0,1) = 8.
  const auto steps = hss_steps(tree);
  REQUIRE(steps.size() == 5);
  const int slots[] = {0, 2, 4, 6, 8};
  for (std::size_t i = 0; i < 5; ++i) CHECK(steps[i].slot == slots[i]);
}

TEST_CASE("HSS takes (m-2)*2*(k-1)+k slots on full trees", "[fbs][schedule]") {
  CHECK(hss_full_tree_slots(4, 8) == 36);  // paper section 5.2
  CHECK(hss_full_tree_slots(4, 4) == 16);  // paper-notes
  for (int k : {4, 8})
    for (int m = 2; m <= 4; ++m) {
      CAPTURE(k, m);
      const Topology t = test::generate("tree", {{"ports", std::to_string(k)}, {"levels", std::to_string(m)}});
      CHECK(static_cast<long long>(hss(t).slots) == hss_full_tree_slots(m, k));
      CHECK(spanning_tree(t).levels == m);
    }
}

TEST_CASE("HSS on a single switch is SSS", "[fbs][schedule]") {
  const Topology t = test::generate("single", {{"ports", "6"}});
  const Schedule h = hss(t);
  const Schedule s = sss({0, 1, 2, 3, 4, 5});
  CHECK(h.slots == s.slots);
  CHECK(grid_of(h, 6) == grid_of(s, 6));
}

TEST_CASE("Uneven trees: levels are heights, NIC-less branches are dropped, the root moves down", "[fbs][schedule]") {
  // A 3-level binary tree of 4-port switches: 4 NICs on two leaf switches.
  Topology t = test::generate("tree", {{"ports", "4"}, {"levels", "3"}, {"fanout", "2"}, {"root_fanout", "2"}});
  const SpanningTree tr = spanning_tree(t);
  CHECK(tr.levels == 3);
  // Only n0..n1 (one leaf switch): the root has one child subtree and no NIC, so the root moves down.
  const SpanningTree one = spanning_tree(t, {0, 1});
  CHECK(one.levels == 2);
  CHECK(one.root == t.nodes[0].sw);
  CHECK(hss(one).slots == 2);
}
