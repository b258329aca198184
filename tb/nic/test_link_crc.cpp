// The NIC's link CRC (nic.link_crc, hw/nic/link_crc.hpp): CRC-8 (Myrinet, one trailer byte) or
// CRC-32 (IEEE 802.3, four), computed by the send DMA and checked by the receive DMA; its wire
// cost in closed form from the parameters; and the receive probe's count of damaged packets the
// CRC passed ("undetected corruptions"), with link faults injected directly (no seed search).
#include <catch2/catch.hpp>
#include <memory>

#include "fixture.hpp"
#include "hw/link/link.hpp"
#include "hw/nic/link_crc.hpp"
#include "hw/nic/memory_map.hpp"

using namespace sanvp;
using namespace sanvp::test;
namespace r = sanvp::nic::map::nic;

namespace {

enum Mode : std::uint32_t { kSender = 4, kReceiver = 5 };

struct Times {
  std::vector<std::pair<Time, Time>> sent, received;
  std::vector<std::uint32_t> wire;
};

// n0 sends `count` packets of `payload` bytes to n1 through one switch (tb/nic/fw/engines.cpp).
Times link_run(NicFixture& f, const std::string& crc, std::uint32_t count, std::uint32_t payload,
               std::function<void(host::NicNetwork&)> before = {}) {
  f.set("nic.link_crc", crc);
  auto& net = f.build(2, 1);
  f.poke(0, "g_cfg", {kSender, 1, count, payload, 200000});  // start at 2 ms: the receiver is ready
  f.poke(1, "g_cfg", {kReceiver, count, 8, 256, 0, 0, payload, 1000000});
  Times t;
  net.nic(0).send_dma().set_observer([&](std::uint32_t, std::uint32_t, Time a, Time b, std::uint32_t w) {
    t.sent.emplace_back(a, b);
    t.wire.push_back(w);
  });
  net.nic(1).recv_dma().set_observer([&](std::uint32_t, Time a, Time b, std::uint32_t, std::uint32_t) { t.received.emplace_back(a, b); });
  if (before) before(net);
  f.run_until_exit({0, 1}, 20 * kMs);
  return t;
}

// n0's packets on n0.out, through a fault injector with no random faults (flip_next only).
LinkFaults& injector(host::NicNetwork& net) {
  for (const auto& c : net.fabric().channels())
    if (c->path() == "n0.out") {
      c->set_faults(std::make_unique<LinkFaults>(LinkFaultConfig{}, 1, c->path()));
      return *c->faults();
    }
  FAIL("no channel n0.out");
  throw std::logic_error("unreachable");
}

// Flit indices on n0.out (0 = the route byte) of two flips 127 bits apart in the CRC's bit
// stream: bit 7 (sent first) of flit a, bit 0 (sent last) of flit a + 15: 15 * 8 + 7 = 127.
constexpr int kFlipA = 1 + 4 + 20, kFlipB = kFlipA + 15;

void check_closed_form(const std::string& crc, std::uint32_t trailer) {
  NicFixture f;
  const std::uint32_t payload = 100;
  const Times t = link_run(f, crc, 5, payload);
  CHECK(f.result(1, 0) == 5);        // good
  CHECK(f.result(1, 1) == 0);        // no CRC error
  CHECK(f.result(1, 7) == 4 + payload);  // type + seq + payload stored, the trailer not
  REQUIRE(t.sent.size() == 5);
  REQUIRE(t.received.size() == 5);
  const Time ld = 17 * kNs, cp = 6250, rd = 100 * kNs, sd = 2 * kNs;  // link.*, switch.* defaults
  const Time wire = 1 + 4 + payload + trailer;  // route byte, type + seq, payload, CRC trailer
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(t.wire[i] == wire);
    CHECK(t.sent[i].second == t.sent[i].first + (wire - 1) * cp);
    CHECK(t.received[i].first == t.sent[i].first + ld + (rd + sd + ld));
    CHECK(t.received[i].second == t.received[i].first + (wire - 2) * cp);  // the route byte stayed in the switch
  }
  // Back to back: each packet's first byte one cp after the previous one's last (the engine's
  // queue is empty between packets here, so only check they do not overlap).
  for (std::size_t i = 1; i < 5; ++i) CHECK(t.sent[i].first > t.sent[i - 1].second);
}

}  // namespace

TEST_CASE("CRC-32 known answer: the IEEE 802.3 check value of \"123456789\" is 0xCBF43926", "[nic][crc]") {
  const std::uint8_t s[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  CHECK(nic::crc32_of(s, sizeof s) == 0xCBF43926u);
}

TEST_CASE("Link CRC-8: one trailer byte on the wire, closed-form times", "[nic][crc]") { check_closed_form("crc8", 1); }
TEST_CASE("Link CRC-32: four trailer bytes on the wire, closed-form times", "[nic][crc]") { check_closed_form("crc32", 4); }

TEST_CASE("Link CRC-32: a byte corrupted on the wire is flagged and not delivered as good", "[nic][crc]") {
  NicFixture f;
  link_run(f, "crc32", 4, 100, [](host::NicNetwork& net) { net.nic(0).send_dma().corrupt_next(1 + 10, 0x40); });
  CHECK(f.result(1, 1) == 1);  // one CRC error
  CHECK(f.result(1, 0) == 3);  // the other three good
  CHECK(f.result(1, 3) == 0);  // no bad packet passed as good
  CHECK((f.result(1, 16) & r::kRxCrcErr) != 0);
}

TEST_CASE("Two flips 127 bits apart cancel in CRC-8 (its period), not in CRC-32", "[nic][crc]") {
  std::vector<std::uint8_t> a(64), b;
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint8_t>(i * 37 + 5);
  b = a;
  b[kFlipA - 1] ^= 0x80;  // the route byte is not covered: flit k is covered byte k - 1
  b[kFlipB - 1] ^= 0x01;
  auto crc8 = [](const std::vector<std::uint8_t>& v) { std::uint8_t c = 0; for (auto x : v) c = crc8_update(c, x); return c; };
  CHECK(crc8(a) == crc8(b));
  CHECK(nic::crc32_of(a.data(), a.size()) != nic::crc32_of(b.data(), b.size()));
}

TEST_CASE("CRC-8 passes a packet with two flips 127 bits apart: the probe counts an undetected corruption", "[nic][crc]") {
  NicFixture f;
  link_run(f, "crc8", 3, 100, [](host::NicNetwork& net) { injector(net).flip_next({{kFlipA, 0x80}, {kFlipB, 0x01}}); });
  const auto& rx = f.net->nic(1).recv_dma();
  CHECK(f.result(1, 1) == 0);  // no CRC error
  CHECK(f.result(1, 3) == 1);  // the firmware's payload check found it bad: it passed as good
  CHECK(f.result(1, 0) == 2);
  CHECK(rx.stats().damaged == 1);
  CHECK(rx.stats().undetected == 1);
  CHECK(rx.stats().undetected_lost == 0);
  REQUIRE(rx.undetected().size() == 1);
  const auto& u = rx.undetected().front();
  CHECK(u.packet == nic_packet_id(0, 0));
  CHECK_FALSE(u.lost);
  using Flip = std::pair<std::uint32_t, std::uint8_t>;
  CHECK(u.flips == std::vector<Flip>{{kFlipA - 1, 7}, {kFlipB - 1, 0}});  // stored offsets (no route byte), bits
  CHECK(f.net->nic(1).recv_dma().stats_json()["rx_undetected_corruptions"] == 1);
}

TEST_CASE("CRC-32 drops the same double flip as damaged: nothing undetected", "[nic][crc]") {
  NicFixture f;
  link_run(f, "crc32", 3, 100, [](host::NicNetwork& net) { injector(net).flip_next({{kFlipA, 0x80}, {kFlipB, 0x01}}); });
  const auto& rx = f.net->nic(1).recv_dma();
  CHECK(f.result(1, 1) == 1);  // the CRC error
  CHECK(f.result(1, 3) == 0);
  CHECK(f.result(1, 0) == 2);
  CHECK(rx.stats().damaged == 1);
  CHECK(rx.stats().undetected == 0);
  CHECK(rx.undetected().empty());
}
