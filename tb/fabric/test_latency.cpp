// Unloaded latency through 1, 2 and 3 switches equals the closed form, exactly, in picoseconds.
//
// A flit sent at t arrives at t + ld. A switch routes a header rd after it reaches the buffer
// head, strips the route byte, and the next flit crosses the crossbar in sd. With cp <= rd the
// rest of the worm is already buffered, so every hop streams at one flit per cp:
//   head (first byte at the destination) = t0 + ld + p*(rd + sd + ld)
//   tail                                  = head + (L - p - 1)*cp,  L = p + 2 + payload + 1.
#include <catch2/catch.hpp>

#include "fabric_fixture.hpp"
#include "tb/common/test_params.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {

void check_chain(int p, std::uint32_t payload, ParamValues& pv) {
  Timing T(pv);
  REQUIRE(T.cp <= T.rd);
  Network net(pv, 1);
  build_chain(net, p);
  const Time t0 = 1 * kUs;
  const std::uint32_t id = net.node(0).inject(1, payload, t0);
  run_for(100 * kUs + payload * T.cp);
  const PacketRecord& r = net.packets()[id];
  const Time L = static_cast<Time>(p) + 2 + payload + 1;
  const Time head = t0 + T.ld + static_cast<Time>(p) * (T.rd + T.sd + T.ld);
  const Time tail = head + (L - static_cast<Time>(p) - 1) * T.cp;
  INFO("p=" << p << " payload=" << payload);
  CHECK(r.injected == t0);
  CHECK(r.head_arrival == head);
  CHECK(r.tail_arrival == tail);
  CHECK(r.deliveries == 1);
  CHECK_FALSE(r.corrupt);
}

}  // namespace

TEST_CASE("unloaded latency through 1 switch, defaults", "[latency]") {
  ParamValues pv;
  check_chain(1, 256, pv);
}

TEST_CASE("unloaded latency through 2 switches, defaults", "[latency]") {
  ParamValues pv;
  check_chain(2, 256, pv);
}

TEST_CASE("unloaded latency through 3 switches, defaults", "[latency]") {
  ParamValues pv;
  check_chain(3, 1000, pv);
}

TEST_CASE("unloaded latency through 3 switches, other timing", "[latency]") {
  // Odd values so a formula that swaps or drops a term cannot pass by coincidence.
  ParamValues pv =
      test::test_params({"link.ld=23ns", "link.cp=12.5ns", "switch.rd=140ns", "switch.sd=3ns", "fc.fc=1.5ns"});
  check_chain(3, 64, pv);
}

TEST_CASE("minimum packet through 2 switches", "[latency]") {
  ParamValues pv;
  check_chain(2, 8, pv);
}

namespace {
// A k-port switch with a node on every port: the far port carries the same closed-form latency.
void check_ports(int k) {
  ParamValues pv;
  Timing T(pv);
  Network net(pv, 1);
  net.add_switch(k);
  for (int p = 0; p < k; ++p) net.add_node(0, p);
  net.build();
  net.compute_shortest_routes();
  const Time t0 = 500 * kNs;
  const std::uint32_t payload = 100;
  const std::uint32_t id = net.node(0).inject(k - 1, payload, t0);
  const std::uint32_t back = net.node(k - 1).inject(0, payload, t0);
  run_for(50 * kUs);
  const Time head = t0 + T.ld + (T.rd + T.sd + T.ld);
  const Time tail = head + (2 + payload + 1 - 1) * T.cp;
  for (auto i : {id, back}) {
    CHECK(net.packets()[i].head_arrival == head);
    CHECK(net.packets()[i].tail_arrival == tail);
  }
}
}  // namespace

TEST_CASE("4-port switch", "[latency][ports]") { check_ports(4); }
TEST_CASE("16-port switch", "[latency][ports]") { check_ports(16); }
TEST_CASE("32-port switch", "[latency][ports]") { check_ports(32); }
TEST_CASE("64-port switch", "[latency][ports]") { check_ports(64); }
