// Packet records released during a run (PacketTable::release): a run keeps only the packets in
// flight (and the few that are not final: corrupt, faulted, dropped), and its statistics
// (platform/sim/packet_stats.hpp) are the same as if every record had been kept to the end.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fabric_fixture.hpp"
#include "hw/base/error.hpp"
#include "platform/sim/packet_stats.hpp"
#include "tb/common/test_params.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {
// The window's figures and counts of `s`, for comparing two ways of getting them.
std::map<std::string, std::uint64_t> figures(const PacketStatistics& s) {
  const Measurement& m = s.window();
  const PacketCounts& c = s.counts();
  return {{"offered", m.offered.packets}, {"offered_wire", m.offered.wire}, {"accepted", m.accepted.packets},
          {"accepted_payload", m.accepted.payload}, {"backlog_from", m.backlog_from}, {"backlog_to", m.backlog_to},
          {"delivered", c.delivered}, {"payload", c.payload_bytes}, {"lat_n", c.lat.size()},
          {"saturated", m.saturated ? 1u : 0u}, {"last_tail", static_cast<std::uint64_t>(s.last_tail())}};
}
}  // namespace

TEST_CASE("released packets: the statistics equal those of every record kept to the end", "[release]") {
  // One 8-port switch past saturation (source backlogs grow), window from 200 us, traffic until
  // 1 ms, drained after: packets are released before, during and after the window.
  ParamValues pv = test_params({"traffic.load=0.7", "traffic.payload=128"});
  Network net(pv, 3);
  net.add_switch(8);
  for (int p = 0; p < 8; ++p) net.add_node(0, p);
  net.build();
  net.compute_shortest_routes();
  TrafficConfig tc = TrafficConfig::from_params(pv, "");
  const Time from = 200 * kUs, duration = kMs;
  tc.stop = duration;
  net.start_traffic(tc);
  const Time cp = net.channels().front()->timing().cp;
  PacketStatistics released(from, duration, 8, 8, cp, 0.05);
  std::vector<PacketRecord> copies;  // every released record, for the reference below
  std::size_t max_kept = 0, max_extra = 0;
  net.packets().set_release([&](const PacketRecord& r, Time now) { released.add_released(r, now); copies.push_back(r); });
  for (Time t = 0; t < 3 * kMs; t += 25 * kUs) {
    run_for(25 * kUs);
    net.packets().release(now_ps());
    max_kept = std::max(max_kept, net.packets().kept());
    // Kept beyond the open packets: only those whose tail arrives at or after the step's end
    // (a sink takes a flit when it is sent, stamped with its arrival).
    max_extra = std::max<std::size_t>(max_extra, net.packets().kept() - net.packets().open());
  }
  const Time stopped = now_ps();
  released.finish(net.packets(), stopped);
  const std::size_t created = net.packets().size();
  REQUIRE(net.packets().open() == 0);
  REQUIRE(created > 3000);
  CHECK(net.packets().kept() == 0);  // all delivered intact: nothing is kept at the end
  CHECK(copies.size() == created);
  // Kept at any step end: the packets in flight (source queues included; they grow past
  // saturation), at most one more per sink, never the run's packets.
  CHECK(max_extra <= 8);
  CHECK(max_kept < created / 3);

  // Reference: every record, in id order, counted at the end.
  std::map<std::pair<int, std::uint32_t>, PacketRecord> by_src_seq;
  for (const PacketRecord& r : copies) by_src_seq[{r.src, r.seq}] = r;
  PacketTable full;
  std::vector<PacketRecord> ordered;
  for (const auto& [k, r] : by_src_seq) ordered.push_back(r);
  std::sort(ordered.begin(), ordered.end(), [](const PacketRecord& a, const PacketRecord& b) {
    return a.created != b.created ? a.created < b.created : a.src < b.src;
  });
  for (PacketRecord r : ordered) { r.released = false; full.add(r); }
  PacketStatistics kept(from, duration, 8, 8, cp, 0.05);
  kept.finish(full, stopped);
  CHECK(figures(released) == figures(kept));
  std::vector<Time> a = released.counts().lat, b = kept.counts().lat;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  CHECK(a == b);
  CHECK(released.window().node_offered.size() == 8);
  for (std::size_t n = 0; n < 8; ++n) {
    CHECK(released.window().node_offered[n].packets == kept.window().node_offered[n].packets);
    CHECK(released.window().node_accepted[n].payload == kept.window().node_accepted[n].payload);
    CHECK(released.window().node_backlog_to[n] == kept.window().node_backlog_to[n]);
  }
}

TEST_CASE("released packets: reading a released record is an error naming the packet", "[release]") {
  PacketTable t;
  for (int i = 0; i < 3; ++i) t.add(PacketRecord{});
  int sunk = 0;
  t.set_release([&](const PacketRecord&, Time) { ++sunk; });
  t[1].deliveries = 1;
  t.set_tail_arrival(1, 100);
  t.release(100);  // the tail arrives at 100: not before the release instant, kept
  CHECK(sunk == 0);
  t.release(101);
  CHECK(sunk == 1);
  CHECK(t.released(1));
  CHECK_FALSE(t.released(0));
  CHECK(t.kept() == 2);
  CHECK(t.size() == 3);
  CHECK_THROWS_WITH(t[1], Catch::Contains("packet 1") && Catch::Contains("released after delivery"));
  CHECK_THROWS_WITH(t.all(), Catch::Contains("released"));
  CHECK_THROWS_WITH(t[7], Catch::Contains("no such packet"));
  // A corrupt delivery is not final: kept for the end of the run.
  t[0].deliveries = 1;
  t[0].corrupt = true;
  t.set_tail_arrival(0, 50);
  t.release(200);
  CHECK(sunk == 1);
  CHECK_FALSE(t.released(0));
}
