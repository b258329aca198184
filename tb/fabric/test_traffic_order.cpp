// Packets created at one instant are numbered in node order, whatever else the kernel has
// pending: the endpoints' generators run from one GenerationClock (hw/endpoint/
// generation_clock.hpp). With an event per generator the kernel ran them in its heap's order
// for equal times (reverse node order on a single switch, and a different order as soon as
// another component added or removed timed events), so packet ids in waves and hang reports
// changed with unrelated model changes.
#include <catch2/catch.hpp>

#include <vector>

#include "fabric_fixture.hpp"
#include "hw/endpoint/generation_clock.hpp"
#include "tb/common/test_params.hpp"

using namespace sanvp;
using namespace sanvp::test;

TEST_CASE("periodic traffic: packets created at one instant are numbered in node order", "[traffic]") {
  ParamValues pv = test_params({"traffic.process=periodic", "traffic.pattern=permutation", "traffic.shift=1",
                                "traffic.load=0.5", "traffic.payload=64"});
  const int k = 8;
  Network net(pv, 1);
  net.add_switch(k);
  for (int p = 0; p < k; ++p) net.add_node(0, p);
  net.build();
  net.compute_shortest_routes();
  TrafficConfig tc = TrafficConfig::from_params(pv, "");
  tc.stop = 3 * kUs;
  net.start_traffic(tc);
  run_for(10 * kUs);
  const auto& all = net.packets().all();
  REQUIRE(all.size() >= 2 * static_cast<std::size_t>(k));
  REQUIRE(all.size() % k == 0);  // every node creates at the same instants
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO("packet " << i);
    CHECK(all[i].src == i % k);
    CHECK(all[i].dst == (i + 1) % k);
    CHECK(all[i].created == all[i - i % k].created);  // a round of k packets shares its instant
    CHECK(all[i].seq == i / k);
  }
}

TEST_CASE("generation clock: slot order at an instant, an earlier request wins, a later one is dropped", "[traffic]") {
  GenerationClock clock("clock");
  std::vector<std::pair<Time, int>> fired;
  std::vector<std::size_t> slot;
  for (int i = 0; i < 4; ++i) slot.push_back(clock.add([&, i] { fired.emplace_back(now_ps(), i); }));
  // Requested in reverse order for one instant: served in slot order.
  for (int i = 3; i >= 0; --i) clock.at(slot[static_cast<std::size_t>(i)], 100);
  clock.at(slot[1], 200);  // later than its pending 100: dropped (one cause, earliest wins)
  clock.at(slot[2], 50);   // earlier than its pending 100: replaces it
  run_for(1000);
  const std::vector<std::pair<Time, int>> want{{50, 2}, {100, 0}, {100, 1}, {100, 3}};
  CHECK(fired == want);
  // After firing, a slot takes a new request, also one for the current instant (next delta).
  fired.clear();
  clock.at(slot[3], now_ps());
  clock.at(slot[0], now_ps() + 7);
  run_for(10);
  const std::vector<std::pair<Time, int>> want2{{1000, 3}, {1007, 0}};
  CHECK(fired == want2);
}
