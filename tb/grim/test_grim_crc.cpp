// GRIM and the NIC's link CRC (nic.link_crc): CRC-8 lets a damaged packet through (two flips
// 127 bits apart, its generator's period) and the scoreboard names the link CRC as the cause;
// CRC-32, GRIM's default, drops the same packet as damaged and GRIM delivers it again intact.
// The documented seed-3 case (1e-4 drops + 1e-4 flips per flit) under both checks.
#include <catch2/catch.hpp>
#include <memory>

#include "hw/link/link.hpp"
#include "platform/grim/grim_run.hpp"
#include "platform/host/nic_network.hpp"
#include "tb/grim/grim_test_util.hpp"

using namespace sanvp;
using namespace sanvp::grim_host;
using sanvp::grim_test::run;

namespace {

// Flit indices on n0.out of n0's first data packet (0 = the route byte, then the 32-byte header):
// bit 7 of payload byte 20 and bit 0 of payload byte 35, 15 * 8 + 7 = 127 bits later in the CRC's
// bit stream.
constexpr int kFlipA = 1 + 32 + 20, kFlipB = kFlipA + 15;

// n0 sends one 1000-byte message to n1; its first packet gets the two flips on n0.out.
GrimRunOptions one_message() {
  GrimRunOptions o;
  o.work.nodes = 2;
  o.work.senders = 1;
  o.work.channels = 1;
  o.work.messages = 1;
  o.work.min_size = o.work.max_size = 1000;
  o.setup = [](host::NicNetwork& net) {
    for (const auto& c : net.fabric().channels())
      if (c->path() == "n0.out") {
        c->set_faults(std::make_unique<LinkFaults>(LinkFaultConfig{}, 1, c->path()));
        c->faults()->flip_next({{kFlipA, 0x80}, {kFlipB, 0x01}});
      }
  };
  return o;
}

GrimRunOptions seed3(ParamValues& pv) {
  pv.set("fault.drop", "1e-4", "test");
  pv.set("fault.corrupt", "1e-4", "test");
  GrimRunOptions o;
  o.work.seed = 3;
  return o;
}

void check_intact(const GrimRunResult& r) {
  INFO(r.table);
  CHECK(r.exit_code == 0);
  CHECK(r.delivered == r.planned);
  for (const auto& n : r.nodes) {
    CHECK(n.score.done);
    CHECK(n.score.corrupt == 0);
    CHECK(n.score.duplicates == 0);
    CHECK(n.score.out_of_order == 0);
    CHECK(n.score.errors.empty());
    CHECK(n.corruption_cause.empty());
    CHECK_FALSE(n.leaked);
  }
}

}  // namespace

TEST_CASE("GRIM over CRC-8: two flips 127 bits apart are delivered, counted undetected, blamed on the link CRC", "[grim][crc]") {
  ParamValues pv;
  pv.set("nic.link_crc", "crc8", "test");
  const GrimRunResult r = run(pv, one_message());
  INFO(r.table);
  CHECK(r.link_crc == "crc8");
  CHECK(r.exit_code == 3);
  CHECK(r.nodes[1].score.corrupt == 1);
  CHECK(r.nodes[1].corruption_cause == "link_crc");
  CHECK(r.total(grim::kStatBadDropped) == 0);
  CHECK(r.damaged == 1);
  CHECK(r.undetected == 1);
  REQUIRE(r.undetected_list.size() == 1);
  // Stored offsets (the route byte is gone) and bits, as the probe saw them.
  CHECK_THAT(r.undetected_list[0], Catch::Contains(fmt::format("byte {} bit 7, byte {} bit 0", kFlipA - 1, kFlipB - 1)));
  CHECK(r.report["link_damage"]["undetected_corruptions"] == 1);
  CHECK(r.report["nodes"][1]["corruption_cause"] == "link_crc");
}

TEST_CASE("GRIM over CRC-32 (its default): the same packet is dropped as damaged and delivered again intact", "[grim][crc]") {
  ParamValues pv;
  const GrimRunResult r = run(pv, one_message());
  check_intact(r);
  CHECK(r.link_crc == "crc32");
  CHECK(r.report["link_crc"] == "crc32");
  CHECK(r.total(grim::kStatBadDropped) == 1);
  CHECK(r.total(grim::kStatRetransmits) >= 1);
  CHECK(r.damaged == 1);
  CHECK(r.undetected == 0);
}

TEST_CASE("GRIM seed 3 at 1e-4 drops and flips: every message intact with CRC-32", "[grim][crc][faults]") {
  ParamValues pv;
  const GrimRunResult r = run(pv, seed3(pv));
  check_intact(r);
  CHECK(r.total(grim::kStatBadDropped) > 0);
  CHECK(r.total(grim::kStatRetransmits) > 0);
  CHECK(r.damaged > 0);
  CHECK(r.undetected == 0);
}

TEST_CASE("GRIM seed 3 at 1e-4 drops and flips over CRC-8: the corrupt delivery is the link CRC's miss", "[grim][crc][faults]") {
  ParamValues pv;
  pv.set("nic.link_crc", "crc8", "test");
  const GrimRunResult r = run(pv, seed3(pv));
  INFO(r.table);
  CHECK(r.exit_code == 3);
  CHECK(r.nodes[0].score.corrupt == 1);  // message 20, n1 -> n0 (docs/grim.md)
  CHECK(r.nodes[0].corruption_cause == "link_crc");
  CHECK(r.nodes[1].score.corrupt == 0);
  CHECK(r.undetected >= 1);
}
