// Route sets (fw/routes.h layout 2) on real NICs: the layout written by the platform and read
// back from SRAM, by the platform and by the firmware's own lookups; clear refusals (overflow,
// foreign layout); the fixed table's primary and U-turn routes; a packet a NIC sends to itself
// through its switch (the U-turn) and packets over alternate routes through two trunks, at the
// times the parameters give.
#include <catch2/catch.hpp>

#include "fixture.hpp"
#include "hw/base/endian.hpp"
#include "hw/base/error.hpp"
#include "platform/nic/route_table.hpp"

using namespace sanvp;
using sanvp::test::NicFixture;
namespace abi = sanvp::route_abi;

namespace {

enum Mode : std::uint32_t { kIdle = 0, kDump = 1, kSendRecv = 2 };
constexpr std::uint32_t kMaxNodes = 16, kAreaBytes = 192;  // FW_DEFINE_ROUTE_SET(16, 192) in fw/routes_fw.cpp

std::string load_error(NicFixture& f, int node, const nic::RouteSets& rs) {
  try {
    nic::load_routes(f.net->nic(node), f.image, rs);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

// Timing parameters as the models resolve them, for the closed forms.
struct Timing {
  Time ld, cp, rd, sd;
  explicit Timing(ParamValues& pv)
      : ld(pv.time("", "link", "ld")), cp(pv.time("", "link", "cp")), rd(pv.time("", "switch", "rd")), sd(pv.time("", "switch", "sd")) {}
};

// Odd values, so a formula that drops or swaps a term cannot pass by coincidence (feasible for
// the default fc.* buffers: see tb/fabric/test_latency).
void odd_timing(NicFixture& f) {
  f.set("link.ld", "23ns");
  f.set("link.cp", "12.5ns");
  f.set("switch.rd", "140ns");
  f.set("switch.sd", "3ns");
  f.set("fc.fc", "1.5ns");
}

struct Times {
  std::vector<std::pair<Time, Time>> sent, received;
};
void observe(NicFixture& f, int from, int to, Times& t) {
  f.net->nic(from).send_dma().set_observer([&t](std::uint32_t, std::uint32_t, Time a, Time b, std::uint32_t) { t.sent.emplace_back(a, b); });
  f.net->nic(to).recv_dma().set_observer([&t](std::uint32_t, Time a, Time b, std::uint32_t, std::uint32_t) { t.received.emplace_back(a, b); });
}

}  // namespace

TEST_CASE("Route sets: the platform's writes read back from SRAM, by the platform and by the firmware's lookups", "[nic][routes]") {
  NicFixture f(ROUTES_FW);
  auto& net = f.build(1, 1);
  // Destinations with no route, one, and three of different lengths (bytes are arbitrary here:
  // the firmware only reads them).
  const nic::RouteSets rs = {{{0}}, {}, {{7, 1}}, {{5, 2, 9}, {6, 2, 9}, {4, 4, 4, 4, 9}}, {{}}, {{3}}};
  nic::load_routes(net.nic(0), f.image, rs);
  for (std::size_t d = 0; d < rs.size(); ++d) CHECK(nic::routes_in_sram(net.nic(0), f.image, static_cast<int>(d)) == rs[d]);
  CHECK(nic::route_in_sram(net.nic(0), f.image, 3) == rs[3][0]);
  CHECK(nic::routes_in_sram(net.nic(0), f.image, 6).empty());  // beyond the nodes written
  // The raw layout: header, index entries (offset << 8 | count), area.
  const std::uint32_t base = test::symbol(f.image, abi::kSetSymbol);
  auto word = [&](std::uint32_t w) { return net.nic(0).sram().read32(base + 4 * w); };
  CHECK(word(abi::kSetWordMagic) == abi::kSetMagic);
  CHECK(word(abi::kSetWordVersion) == abi::kSetVersion);
  CHECK(word(abi::kSetWordMaxNodes) == kMaxNodes);
  CHECK(word(abi::kSetWordAreaBytes) == kAreaBytes);
  CHECK(word(abi::kSetWordNodes) == 6);
  CHECK(word(abi::kSetWordUsed) == nic::route_set_bytes(rs));
  CHECK(nic::route_set_bytes(rs) == 2 + 0 + 3 + (4 + 4 + 6) + 1 + 2);
  CHECK(word(abi::kSetHeaderWords + 0) == (0u << 8 | 1));
  CHECK(word(abi::kSetHeaderWords + 1) == 0);  // no route
  CHECK(word(abi::kSetHeaderWords + 2) == (2u << 8 | 1));
  CHECK(word(abi::kSetHeaderWords + 3) == (5u << 8 | 3));
  CHECK(word(abi::kSetHeaderWords + 4) == (19u << 8 | 1));  // one empty route
  CHECK(word(abi::kSetHeaderWords + 5) == (20u << 8 | 1));
  const std::uint8_t* area = net.nic(0).sram().data() + base + 4 * (abi::kSetHeaderWords + kMaxNodes);
  CHECK(std::vector<std::uint8_t>(area, area + 7) == std::vector<std::uint8_t>{1, 0, 2, 7, 1, 3, 5});
  // The firmware's lookups (fw::route_nodes, route_count, route) see the same table.
  f.poke(0, "g_cfg", {kDump});
  f.run_until_exit({0}, 1 * kMs);
  std::vector<std::uint8_t> want;
  for (const auto& routes : rs) {
    want.push_back(static_cast<std::uint8_t>(routes.size()));
    for (const auto& r : routes) {
      want.push_back(static_cast<std::uint8_t>(r.size()));
      want.insert(want.end(), r.begin(), r.end());
    }
  }
  REQUIRE(f.result(0, 0) == rs.size());
  REQUIRE(f.result(0, 1) == want.size());
  const std::uint8_t* dump = net.nic(0).sram().data() + test::symbol(f.image, "g_dump");
  CHECK(std::vector<std::uint8_t>(dump, dump + want.size()) == want);
}

TEST_CASE("Route sets that do not fit are refused naming the destination, the bytes needed and the bytes left", "[nic][routes]") {
  NicFixture f(ROUTES_FW);
  f.build(1, 1);
  // 16 destinations of three 4-hop routes: 15 bytes each; 12 fit in 192 bytes, n12 does not.
  nic::RouteSets rs(kMaxNodes, {{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}});
  const std::string e = load_error(f, 0, rs);
  CHECK_THAT(e, Catch::Contains("the routes to n12 need 15 bytes, 12 of the 192 area bytes are left"));
  CHECK_THAT(e, Catch::Contains("240 bytes needed for all 16 destinations; FW_DEFINE_ROUTE_SET(16, 192)"));
  // More destinations than index entries.
  const std::string e2 = load_error(f, 0, nic::RouteSets(kMaxNodes + 1, {{0}}));
  CHECK_THAT(e2, Catch::Contains("destination n16 is beyond the firmware's table of 16 nodes"));
  // Exactly full is fine.
  nic::RouteSets full(12, {{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}});
  full.push_back({{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}});
  CHECK(nic::route_set_bytes(full) == kAreaBytes);
  CHECK(load_error(f, 0, full).empty());
}

TEST_CASE("A firmware built against another route-set layout is refused clearly", "[nic][routes]") {
  NicFixture f(ROUTES_FW);
  f.build(1, 1);
  f.poke(0, abi::kSetSymbol, {abi::kSetMagic, 1});  // an image of layout version 1
  CHECK_THAT(load_error(f, 0, {{{0}}}),
             Catch::Contains("route sets have layout version 1, this platform writes version 2: rebuild the firmware against this fw/routes.h"));
  f.poke(0, abi::kSetSymbol, {0x12345678u});
  CHECK_THAT(load_error(f, 0, {{{0}}}), Catch::Contains("does not start with the route-set magic 0x52544553 (found 0x12345678)"));
}

TEST_CASE("The fixed table gets the primary route of each destination and the U-turn to the node itself", "[nic][routes]") {
  NicFixture f;  // the engine-test firmware: FW_DEFINE_ROUTE_TABLE
  auto& net = f.build(3, 2);
  for (int s = 0; s < 3; ++s)
    for (int d = 0; d < 3; ++d) {
      const auto want = s == d ? std::vector<std::uint8_t>{static_cast<std::uint8_t>(net.fabric().attachment(s).port)} : net.route(s, d);
      CHECK(nic::route_in_sram(net.nic(s), f.image, d) == want);
    }
}

TEST_CASE("U-turn: a NIC sends a packet to itself through its switch and receives it at the closed-form time", "[nic][routes][uturn]") {
  NicFixture f(ROUTES_FW);
  odd_timing(f);
  auto& net = f.build(1, 1);
  Times t;
  observe(f, 0, 0, t);
  REQUIRE(nic::routes_in_sram(net.nic(0), f.image, 0) == std::vector<nic::RouteBytes>{{0}});  // n0 is on port 0
  const std::uint32_t payload = 100;
  // to n0 (itself), route 0, one route, payload, receive 1, start at once, give up after 1 ms
  f.poke(0, "g_cfg", {kSendRecv, 0, 0, 1, payload, 1, 0, 100000});
  f.run_until_exit({0}, 5 * kMs);
  CHECK(f.result(0, 0) == 1);  // route_count(self)
  CHECK(f.result(0, 1) == 1);  // sent
  CHECK(f.result(0, 2) == 1);  // received intact
  CHECK(f.result(0, 3) == 0);
  CHECK(f.result(0, 4) == 3 + payload);  // type + sequence + payload stored, the route byte consumed
  REQUIRE(t.sent.size() == 1);
  REQUIRE(t.received.size() == 1);
  // Out over the NIC's link (ld), routed back by its switch through the port it came in by
  // (rd + sd), back over the other direction of the same cable (ld): one switch hop.
  const Timing T(f.pv);
  const Time wire = 1 + 3 + payload + 1;  // route byte, type + sequence, payload, CRC
  CHECK(t.received[0].first == t.sent[0].first + T.ld + (T.rd + T.sd + T.ld));
  CHECK(t.received[0].second == t.received[0].first + (wire - 1 - 1) * T.cp);
  CHECK(t.sent[0].second == t.sent[0].first + (wire - 1) * T.cp);
  // Both directions of the cable carried the packet.
  CHECK(net.fabric().channel("n0.out").flits() == wire);
  CHECK(net.fabric().channel("sw0.p0.out").flits() == wire - 1);
}

TEST_CASE("Alternate routes through a second trunk deliver, each over its own trunk, at the closed-form time", "[nic][routes][alternates]") {
  NicFixture f(ROUTES_FW);
  odd_timing(f);
  host::NicNetworkSpec spec;
  spec.hosts = 2;
  spec.switches = 2;
  spec.trunks = 2;  // sw0.p7 - sw1.p6 and sw0.p5 - sw1.p4
  spec.alternates = 3;
  auto& net = *(f.net = new host::NicNetwork(f.pv, 1, f.image, spec));
  Times t;
  observe(f, 0, 1, t);
  // Shortest route first (lowest port), then the other trunk; no other legal simple path exists.
  const std::vector<nic::RouteBytes> want{{5, 0}, {7, 0}};
  REQUIRE(nic::routes_in_sram(net.nic(0), f.image, 1) == want);
  REQUIRE(nic::routes_in_sram(net.nic(1), f.image, 0) == std::vector<nic::RouteBytes>{{4, 0}, {6, 0}});
  const std::uint32_t payload = 40;
  f.poke(0, "g_cfg", {kSendRecv, 1, 0, 2, payload, 0, 20000, 100000});  // both routes to n1, from 200 us
  f.poke(1, "g_cfg", {kSendRecv, 1, 0, 0, payload, 2, 0, 100000});      // receive 2
  f.run_until_exit({0, 1}, 5 * kMs);
  CHECK(f.result(0, 0) == 2);  // route_count(n1)
  CHECK(f.result(0, 1) == 2);
  CHECK(f.result(1, 2) == 2);  // both intact
  CHECK(f.result(1, 5) == 3);  // sequence numbers 0 and 1
  const Time wire = 2 + 3 + payload + 1;
  CHECK(net.fabric().channel("sw0.p5.out").flits() == wire - 1);  // route 0 over the first trunk
  CHECK(net.fabric().channel("sw0.p7.out").flits() == wire - 1);  // route 1 over the second
  REQUIRE(t.sent.size() == 2);
  REQUIRE(t.received.size() == 2);
  const Timing T(f.pv);
  for (std::size_t i = 0; i < 2; ++i) CHECK(t.received[i].first == t.sent[i].first + T.ld + 2 * (T.rd + T.sd + T.ld));
}
