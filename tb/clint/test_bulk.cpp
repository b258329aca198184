// Bulk channel (B4): pipeline timing derived from the parameters, scoreboard of exactly-once
// in-order delivery with backs, no collisions, enable vectors, CRC errors, NACKs.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <set>
#include <systemc>

#include "hw/clint/bulk_channel.hpp"
#include "hw/base/error.hpp"

using namespace sanvp;
using namespace sanvp::clint;

namespace {

TrafficConfig traffic(double load, bool bursty) {
  TrafficConfig t;
  t.load = load;
  t.bursty = bursty;
  return t;
}

sc_core::sc_time ps(Time t) { return sc_core::sc_time::from_value(t); }

// Scoreboard: per pair, deliveries in sequence order, once each; backs only for delivered packets.
struct Scoreboard {
  std::map<std::pair<int, int>, std::uint64_t> next_seq;
  std::set<std::uint64_t> delivered, completed;
  std::map<std::uint64_t, Time> delivered_at;
  std::uint64_t errors = 0;
  std::string first_error;
  void fail(const std::string& s) { if (errors++ == 0) first_error = s; }
  void attach(BulkChannel& ch) {
    ch.on_deliver = [this](const Packet& p, Time t) {
      auto& exp = next_seq[{p.src, p.dst}];
      if (p.seq != exp) fail(fmt::format("pair {}->{} delivered seq {} expected {}", p.src, p.dst, p.seq, exp));
      exp = p.seq + 1;
      if (!delivered.insert(p.id).second) fail(fmt::format("packet {} delivered twice", p.id));
      delivered_at[p.id] = t;
    };
    ch.on_complete = [this](const Packet& p, Time t) {
      auto it = delivered_at.find(p.id);
      if (it == delivered_at.end()) fail(fmt::format("packet {} acknowledged but never delivered", p.id));
      else if (it->second > t) fail(fmt::format("packet {} acknowledged before delivery", p.id));
      if (!completed.insert(p.id).second) fail(fmt::format("packet {} acknowledged twice", p.id));
    };
  }
};

}  // namespace

TEST_CASE("a single breq follows the arb/trf/ack pipeline timing", "[bulk]") {
  BulkConfig cfg;
  cfg.guard = 200 * kNs;
  BulkChannel ch("bulk", cfg, traffic(0.1, false), 4, make_arbiter("lcf", 4), 1, 0);
  ch.set_manual_traffic(true);
  const Time born = 10 * kUs;
  ch.inject(2, 3, born);
  Time delivered = 0, completed = 0;
  ch.on_deliver = [&](const Packet&, Time t) { delivered = t; };
  ch.on_complete = [&](const Packet&, Time t) { completed = t; };
  sc_core::sc_start(ps(100 * kUs));
  const Time T = cfg.slot();
  REQUIRE(T == 2086 * 4 * kNs + 200 * kNs);
  // First cfg snapshot at or after birth: k*T + T - arb_lead >= born.
  Time k = 0;
  while (k * T + T - cfg.arb_lead < born) ++k;
  const Time start = (k + 1) * T + cfg.guard;
  const Time tail = start + 2086 * 4 * kNs + 2 * cfg.wire_delay + cfg.switch_latency;
  CHECK(delivered == tail);
  CHECK(completed == tail + 4 * cfg.q_byte_time + 2 * cfg.q_wire_delay + cfg.q_switch_latency);
  CHECK(ch.stats().lat_count == 1);
  CHECK(ch.stats().lat_max == start - born);
  CHECK(ch.stats().bulk_collisions == 0);
  for (int h = 0; h < 4; ++h) CHECK(ch.node_id(h) == h);  // gnt packets assign port numbers
}

TEST_CASE("every breq is delivered exactly once and in order per pair with its back and no collision", "[bulk]") {
  // All six channels elaborate together: SystemC cannot add modules once it has started.
  std::vector<std::unique_ptr<BulkChannel>> chans;
  std::vector<std::unique_ptr<Scoreboard>> sbs;
  std::vector<std::string> names;
  for (const char* arb : {"lcf", "islip", "maxsize"}) {
    for (bool bursty : {false, true}) {
      BulkConfig cfg;
      cfg.per_target_max = 4;  // out-of-order prefetch across targets
      names.push_back(fmt::format("bulk_{}_{}", arb, bursty ? "bursty" : "smooth"));
      chans.push_back(std::make_unique<BulkChannel>(names.back().c_str(), cfg, traffic(0.8, bursty), 16,
                                                    make_arbiter(arb, 16), 5, 0));
      sbs.push_back(std::make_unique<Scoreboard>());
      sbs.back()->attach(*chans.back());
    }
  }
  sc_core::sc_start(ps(3 * kMs));
  for (std::size_t k = 0; k < chans.size(); ++k) {
    const auto& ch = *chans[k];
    const auto& sb = *sbs[k];
    INFO(names[k] << ": " << sb.first_error);
    REQUIRE(sb.errors == 0);
    REQUIRE(ch.stats().bulk_collisions == 0);
    REQUIRE(ch.stats().delivered > 3000);
    // Everything delivered is acknowledged within one slot: at most one back per host in flight.
    REQUIRE(ch.stats().completed + 16 >= ch.stats().delivered);
    REQUIRE(ch.stats().delivered == sb.delivered.size());
  }
  // Stop the generators and drain: every generated breq must now be delivered and acknowledged
  // (a lost last packet of a pair shows up only here, not in the sequence check).
  for (auto& ch : chans) ch->set_manual_traffic(true);
  sc_core::sc_start(ps(2 * kMs));
  for (std::size_t k = 0; k < chans.size(); ++k) {
    const auto& ch = *chans[k];
    const auto& sb = *sbs[k];
    INFO(names[k] << " after draining: " << sb.first_error);
    REQUIRE(sb.errors == 0);
    CHECK(ch.backlog() == 0);
    CHECK(ch.stats().delivered == ch.stats().generated);
    CHECK(sb.delivered.size() == ch.stats().generated);
    CHECK(sb.completed.size() == ch.stats().generated);
    CHECK(ch.stats().bulk_collisions == 0);
  }
}

TEST_CASE("a disabled initiator is never granted", "[bulk]") {
  BulkChannel ch("bulk", BulkConfig{}, traffic(0.5, false), 8, make_arbiter("lcf", 8), 9, 0);
  for (int i = 0; i < 8; ++i) ch.set_enable(3, i, i == 3);  // target 3 accepts nobody else
  ch.set_enable(6, 1, false);
  std::uint64_t to3 = 0, from1to6 = 0, total = 0;
  ch.on_deliver = [&](const Packet& p, Time) {
    ++total;
    to3 += p.dst == 3;
    from1to6 += p.src == 1 && p.dst == 6;
  };
  sc_core::sc_start(ps(2 * kMs));  // the model throws SimError if a disabled pair is granted
  CHECK(total > 500);
  CHECK(to3 == 0);
  CHECK(from1to6 == 0);
}

TEST_CASE("a corrupted breq gets no back and is retransmitted after the timeout", "[bulk][crc]") {
  BulkConfig cfg;
  BulkChannel ch("bulk", cfg, traffic(0.1, false), 4, make_arbiter("lcf", 4), 1, 0);
  ch.set_manual_traffic(true);
  ch.inject(0, 1, 0);
  ch.inject(0, 1, 0);  // second packet of the pair overtakes nothing: go-back-N keeps order
  ch.corrupt_next(0, 1);
  Scoreboard sb;
  sb.attach(ch);
  std::vector<Time> deliveries;
  auto deliver = ch.on_deliver;
  ch.on_deliver = [&](const Packet& p, Time t) { deliver(p, t); deliveries.push_back(t); };
  sc_core::sc_start(ps(200 * kUs));
  const Time T = cfg.slot();
  const Time transit = cfg.breq_time() + 2 * cfg.wire_delay + cfg.switch_latency;
  // Slot 0 snapshot sees both packets; first breq (corrupted) in slot 1, second in slot 2 (NACKed:
  // out of sequence). Timeout of the first: T + timeout; next snapshot after it schedules the
  // retransmission for the following slot.
  Time k = 0;
  while (k * T + T - cfg.arb_lead < T + cfg.timeout) ++k;
  const Time retx = (k + 1) * T + cfg.guard;
  INFO(sb.first_error);
  REQUIRE(sb.errors == 0);
  REQUIRE(ch.stats().crc_errors == 1);
  REQUIRE(ch.stats().timeouts >= 1);
  REQUIRE(deliveries.size() == 2);
  CHECK(deliveries[0] == retx + transit);
  CHECK(deliveries[1] == retx + T + transit);
  CHECK(ch.stats().completed == 2);
  CHECK(ch.stats().nacks >= 1);  // the second packet arrived out of sequence first
}

TEST_CASE("a full receive buffer pool answers NACK and the packet is delivered later", "[bulk]") {
  BulkConfig cfg;
  cfg.recv_buffers = 1;
  cfg.host_recv_time = 30 * kUs;
  BulkChannel ch("bulk", cfg, traffic(0.1, false), 4, make_arbiter("lcf", 4), 1, 0);
  ch.set_manual_traffic(true);
  for (int k = 0; k < 3; ++k) { ch.inject(0, 2, 0); ch.inject(1, 2, 0); }
  Scoreboard sb;
  sb.attach(ch);
  sc_core::sc_start(ps(1 * kMs));
  INFO(sb.first_error);
  REQUIRE(sb.errors == 0);
  CHECK(ch.stats().nacks > 0);
  CHECK(ch.stats().delivered == 6);
  CHECK(ch.stats().completed == 6);
}

TEST_CASE("random CRC errors: every breq still delivered exactly once and in order", "[bulk][crc]") {
  BulkConfig cfg;
  cfg.error_rate = 0.05;
  BulkChannel ch("bulk", cfg, traffic(0.6, true), 16, make_arbiter("lcf", 16), 3, 0);
  Scoreboard sb;
  sb.attach(ch);
  sc_core::sc_start(ps(3 * kMs));
  INFO(sb.first_error);
  REQUIRE(sb.errors == 0);
  CHECK(ch.stats().crc_errors > 50);
  CHECK(ch.stats().delivered > 2000);
  CHECK(ch.stats().bulk_collisions == 0);
  ch.set_manual_traffic(true);  // drain: nothing lost for good, nothing acknowledged twice
  sc_core::sc_start(ps(3 * kMs));
  REQUIRE(sb.errors == 0);
  CHECK(ch.backlog() == 0);
  CHECK(ch.stats().delivered == ch.stats().generated);
  CHECK(sb.completed.size() == ch.stats().generated);
}

TEST_CASE("bulk parameters that break the pipeline are user errors", "[bulk]") {
  BulkConfig cfg;
  cfg.arb_lead = 100 * kNs;  // shorter than cfg + gnt on the quick channel
  REQUIRE_THROWS_AS(cfg.validate(), UserError);
  cfg = BulkConfig{};
  cfg.arb_lead = 9 * kUs;  // longer than a slot
  REQUIRE_THROWS_AS(cfg.validate(), UserError);
}

TEST_CASE("at light load the B4 latency is half a slot plus the cfg-to-transfer lead", "[bulk]") {
  // Births are uniform, so a packet waits T/2 on average for the next cfg snapshot, then
  // arb_lead until its transfer slot starts; conflicts are rare at 1 % load.
  BulkConfig cfg;
  cfg.guard = 300 * kNs;
  BulkChannel ch("bulk", cfg, traffic(0.01, false), 16, make_arbiter("lcf", 16), 2, 0);
  sc_core::sc_start(ps(40 * kMs));
  const double expect_us = (static_cast<double>(cfg.slot()) / 2 + static_cast<double>(cfg.arb_lead + cfg.guard)) / 1e6;
  INFO("mean " << ch.stats().mean_latency_us() << " us, expected about " << expect_us << " us");
  REQUIRE(ch.stats().lat_count > 500);
  CHECK(ch.stats().mean_latency_us() == Approx(expect_us).epsilon(0.03));
  CHECK(ch.stats().mean_latency_us() >= static_cast<double>(cfg.arb_lead + cfg.guard) / 1e6);
}
