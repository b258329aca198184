// Output arbitration policies (hw/switch/output_arbiter.hpp), chosen by switch.arbiter: each
// policy's choice on its own, then the grant order they give in a switch when a long worm
// holds an output while three inputs queue for it at staggered times.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "fabric_fixture.hpp"
#include "hw/base/error.hpp"
#include "hw/switch/output_arbiter.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {
using W = OutputArbiter::Waiting;
std::vector<int> picks(OutputArbiter& a, const std::vector<W>& w, int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(w[a.choose(0, w)].input);
  return v;
}
}  // namespace

TEST_CASE("round-robin serves the waiting inputs in circular order after the last granted", "[arbiter]") {
  auto a = make_output_arbiter("round-robin", 9, 8, 1, "sw0");
  REQUIRE(a);
  CHECK(picks(*a, {{0, 0}, {2, 0}, {5, 0}}, 4) == std::vector<int>{0, 2, 5, 0});
  CHECK(picks(*a, {{1, 0}, {6, 0}}, 1) == std::vector<int>{1});  // after 0: the next above it
}

TEST_CASE("oldest-first serves the longest waiting input, ties round-robin", "[arbiter]") {
  auto a = make_output_arbiter("oldest-first", 9, 8, 1, "sw0");
  REQUIRE(a);
  const std::vector<W> w{{0, 50}, {3, 10}, {5, 10}};
  CHECK(picks(*a, w, 3) == std::vector<int>{3, 5, 3});
  CHECK(picks(*a, {{0, 5}, {3, 10}}, 1) == std::vector<int>{0});
}

TEST_CASE("random is a per-switch stream (same seed and switch, same choices) and serves every input", "[arbiter]") {
  const std::vector<W> w{{0, 0}, {4, 0}, {7, 0}};
  auto a = make_output_arbiter("random", 9, 8, 7, "sw3");
  auto b = make_output_arbiter("random", 9, 8, 7, "sw3");
  auto c = make_output_arbiter("random", 9, 8, 7, "sw4");
  const auto pa = picks(*a, w, 300), pb = picks(*b, w, 300), pc = picks(*c, w, 300);
  CHECK(pa == pb);
  CHECK(pa != pc);
  for (int in : {0, 4, 7}) CHECK(std::count(pa.begin(), pa.end(), in) > 60);  // 100 expected each
}

TEST_CASE("an unknown switch.arbiter is refused with the list of policies", "[arbiter]") {
  CHECK(make_output_arbiter("fifo", 9, 8, 1, "sw0") == nullptr);
  ParamValues pv;
  pv.set("switch.arbiter", "fifo", "--set");
  try {
    SwitchConfig::from_params(pv, "sw0", 8);
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(std::string(e.what()) == "switch.arbiter (--set): unknown policy 'fifo' (available: round-robin, oldest-first, random)");
  }
}

namespace {
// Node 3 holds output 7 with a long worm from t=0; nodes 2, 0, 1 ask for it at 1, 2 and 3 us.
std::vector<int> grant_order(const std::string& policy) {
  ParamValues pv;
  pv.set("switch.arbiter", policy, "test");
  Network net(pv, 1);
  const int sw = net.add_switch(8);
  for (int p = 0; p < 8; ++p) net.add_node(sw, p);
  net.build();
  net.compute_shortest_routes();
  std::vector<int> grants;
  net.sw(0).set_grant_observer([&](Time, int in, int out) { if (out == 7) grants.push_back(in); });
  net.node(3).inject(7, 2000, 0);  // about 12.5 us on the output link
  net.node(2).inject(7, 64, 1 * kUs);
  net.node(0).inject(7, 64, 2 * kUs);
  net.node(1).inject(7, 64, 3 * kUs);
  run_for(100 * kUs);
  return grants;
}
}  // namespace

TEST_CASE("in a switch, round-robin grants after the holder in port order", "[arbiter]") {
  CHECK(grant_order("round-robin") == std::vector<int>{3, 0, 1, 2});
}

TEST_CASE("in a switch, oldest-first grants in the order the inputs asked", "[arbiter]") {
  CHECK(grant_order("oldest-first") == std::vector<int>{3, 2, 0, 1});
}
