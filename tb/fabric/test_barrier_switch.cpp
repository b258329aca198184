// BTIN barrier traffic through the switch model: barrier packets are diverted to the switch's
// BarrierUnit at the input, merged towards the parent and replicated to the children, sharing
// the outputs with ordinary worms. Timing is derived from the parameters; correctness is checked
// under heavy ordinary traffic.
#include <catch2/catch.hpp>
#include <map>

#include "fabric_fixture.hpp"
#include "hw/barrier/wire_format.hpp"
#include "hw/base/rng.hpp"
#include "platform/sim/run.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
using namespace sanvp::test;
using namespace sanvp::barrier;

namespace {

std::vector<std::uint8_t> reduce(std::uint8_t gid) { return encode_message({MsgType::Reduce, gid, 0}); }
std::vector<std::uint8_t> distribute(std::uint8_t gid) { return encode_message({MsgType::Distribute, gid, 0}); }
std::vector<std::uint8_t> alloc(std::uint8_t gid, int parent, std::uint64_t cmask) {
  return encode_config({ConfigOp::Alloc, gid, static_cast<std::uint8_t>(parent), cmask});
}

struct Received { std::vector<std::uint8_t> bytes; Time at; };

}  // namespace

TEST_CASE("barrier on one switch: register write, merge and replicate, exact timing", "[barrier]") {
  ParamValues pv;
  Timing T(pv);
  const Time delay = pv.time("", "barrier", "delay");
  Network net(pv, 1);
  net.add_switch(8);
  for (int p = 0; p < 4; ++p) net.add_node(0, p);
  net.build();
  net.compute_shortest_routes();
  std::map<int, std::vector<Received>> got;
  for (int n = 0; n < 4; ++n)
    net.node(n).set_barrier_observer([&got, n](const std::vector<std::uint8_t>& b, Time t) { got[n].push_back({b, t}); });

  // n0 is the root node: P = port 0, C = ports 0..3.
  net.node(0).inject_raw(alloc(5, 0, 0xF), 0);
  const Time a1 = 1 * kUs, a2 = 1300 * kNs, a3 = 1700 * kNs;
  net.node(1).inject_raw(reduce(5), a1);
  net.node(2).inject_raw(reduce(5), a3);  // the last to arrive
  net.node(3).inject_raw(reduce(5), a2);
  const Time hop = (kMessageFlits - 1) * T.cp + T.ld;
  const Time reduce_at_root = a3 + hop + delay + T.sd + hop;
  // The root node arrives after the merged REDUCE and releases everyone.
  const Time root_arrives = reduce_at_root + 200 * kNs;
  net.node(0).inject_raw(distribute(5), root_arrives);
  run_for(root_arrives - 1);

  // Register write: 13 flits in, answered at once with 5 flits out of the same port.
  REQUIRE(got[0].size() == 2);
  auto resp = decode_response(got[0][0].bytes);
  REQUIRE(resp);
  CHECK(resp->resp.status == ConfigStatus::Ok);
  CHECK(resp->gid == 5);
  CHECK(got[0][0].at == (kConfigFlits - 1) * T.cp + T.ld + T.sd + (kResponseFlits - 1) * T.cp + T.ld);
  // The merged REDUCE reaches the root node after the last member's message is complete, the
  // unit's delay, the crossbar and the wire.
  auto m = decode_message(got[0][1].bytes);
  REQUIRE(m);
  CHECK(m->type == MsgType::Reduce);
  CHECK(got[0][1].at == reduce_at_root);
  for (int n = 1; n < 4; ++n) CHECK(got[n].empty());  // nobody released yet

  // Replicated to C minus P in parallel.
  run_for(3 * kUs);
  for (int n = 1; n < 4; ++n) {
    REQUIRE(got[n].size() == 1);
    auto d = decode_message(got[n][0].bytes);
    REQUIRE(d);
    CHECK(d->type == MsgType::Distribute);
    CHECK(got[n][0].at == root_arrives + hop + delay + T.sd + hop);
  }
  CHECK(net.sw(0).barrier_drops() == 0);
}

TEST_CASE("barrier through two switches under heavy ordinary traffic: nobody leaves early", "[barrier]") {
  // sw0: root node n0 (p0), member n1 (p1), n4 traffic only (p4); trunk sw0.p2 - sw1.p3.
  // sw1: members n2 (p0), n3 (p1); n5 traffic only (p4).
  ParamValues pv = test::test_params({"traffic.load=0.8", "traffic.payload=512", "sim.duration=400us", "sim.drain=2ms"});
  RunOptions opt = test::checked_run_options();
  RunSpec spec;
  spec.topology = [](Network& net) {
    net.add_switch(8);
    net.add_switch(8);
    net.add_node(0, 0);
    net.add_node(0, 1);
    net.add_node(1, 0);
    net.add_node(1, 1);
    net.add_node(0, 4);
    net.add_node(1, 4);
    net.connect(0, 2, 1, 3);
  };
  const int episodes = 5;
  const std::uint8_t gid = 9;
  std::map<int, std::vector<Time>> arrive, release;  // member -> per-episode times
  std::vector<Time> root_released;
  int drops = 0;
  std::vector<std::string> errors;
  spec.traffic = [&](Network& net) {
    net.start_traffic(TrafficConfig::from_params(pv, ""));
    // Register writes: each switch by a node attached to it.
    net.node(0).inject_raw(alloc(gid, 0, 0b0111), 0);           // sw0: P = root node port 0
    net.node(2).inject_raw(alloc(gid, 3, 0b1011), 0);           // sw1: P = trunk port 3
    Rng rng(1, "barrier-test");
    // Members 1..3 arrive at random times within each episode's window; the root node (0)
    // sends DISTRIBUTE when it has the merged REDUCE and has arrived itself.
    for (int e = 0; e < episodes; ++e) {
      const Time base = 20 * kUs + static_cast<Time>(e) * 70 * kUs;
      for (int n = 0; n < 4; ++n) {
        const Time t = base + rng.below(40 * kUs);
        arrive[n].push_back(t);
        if (n > 0) net.node(n).inject_raw(reduce(gid), t);
      }
    }
    for (int n = 0; n < 4; ++n) {
      net.node(n).set_barrier_observer([&, n](const std::vector<std::uint8_t>& b, Time t) {
        if (decode_response(b)) return;
        auto m = decode_message(b);
        if (!m) { errors.push_back("undecodable barrier packet"); return; }
        if (n == 0) {
          if (m->type != MsgType::Reduce) { errors.push_back("root got a non-REDUCE"); return; }
          const std::size_t e = root_released.size();
          const Time go = std::max(t, arrive[0].at(e));
          root_released.push_back(go);
          release[0].push_back(go);
          net.node(0).inject_raw(distribute(gid), go);
        } else {
          if (m->type != MsgType::Distribute) { errors.push_back("member got a non-DISTRIBUTE"); return; }
          release[n].push_back(t);
        }
      });
    }
  };
  std::uint64_t delivered = 0, created = 0;
  spec.keep_packet_records = true;
  spec.on_finish = [&](Network& net) {
    drops = static_cast<int>(net.sw(0).barrier_drops() + net.sw(1).barrier_drops());
    for (const auto& r : net.packets().all()) { ++created; if (r.deliveries == 1 && !r.corrupt) ++delivered; }
  };
  RunResult res = run_simulation(pv, opt, spec);
  CHECK(res.status == RunStatus::Completed);
  CHECK(errors.empty());
  CHECK(drops == 0);
  CHECK(created > 500);
  CHECK(delivered == created);
  for (int e = 0; e < episodes; ++e) {
    Time last_arrival = 0;
    for (int n = 0; n < 4; ++n) last_arrival = std::max(last_arrival, arrive[n][static_cast<std::size_t>(e)]);
    for (int n = 0; n < 4; ++n) {
      INFO("episode " << e << " member " << n);
      REQUIRE(release[n].size() == static_cast<std::size_t>(episodes));
      CHECK(release[n][static_cast<std::size_t>(e)] >= last_arrival);
      if (e + 1 < episodes) CHECK(release[n][static_cast<std::size_t>(e)] < arrive[0][static_cast<std::size_t>(e) + 1] + 70 * kUs);
    }
  }
}

TEST_CASE("register exhaustion: the spill table sends the group's messages to the node keeping it, exact timing", "[barrier]") {
  ParamValues pv;
  pv.set("barrier.registers", "2", "test");
  Timing T(pv);
  Network net(pv, 1);
  net.add_switch(8);
  for (int p = 0; p < 4; ++p) net.add_node(0, p);
  net.build();
  net.compute_shortest_routes();
  std::map<int, std::vector<Received>> got;
  for (int n = 0; n < 4; ++n)
    net.node(n).set_barrier_observer([&got, n](const std::vector<std::uint8_t>& b, Time t) { got[n].push_back({b, t}); });
  // Two registers taken (groups 1, 2); group 3's ALLOC from n1 is refused: n1 keeps it.
  net.node(0).inject_raw(alloc(1, 0, 0x3), 0);
  net.node(0).inject_raw(alloc(2, 0, 0x5), 100 * kNs);
  net.node(1).inject_raw(alloc(3, 1, 0xE), 1 * kUs);
  const Time sent = 2 * kUs;
  net.node(2).inject_raw(reduce(3), sent);
  run_for(3 * kUs);
  REQUIRE(got[1].size() == 2);
  auto resp = decode_response(got[1][0].bytes);
  REQUIRE(resp);
  CHECK(resp->resp.status == ConfigStatus::Full);
  auto sp = decode_spilled(got[1][1].bytes);
  REQUIRE(sp);
  CHECK(sp->in_port == 2);
  CHECK(sp->msg.type == MsgType::Reduce);
  CHECK(sp->msg.gid == 3);
  // Complete at the switch, then at once (no unit delay) through the crossbar, 5 flits on the wire.
  CHECK(got[1][1].at == sent + (kMessageFlits - 1) * T.cp + T.ld + T.sd + (kSpilledFlits - 1) * T.cp + T.ld);
  CHECK(net.sw(0).barrier_spilled() == 1);
  CHECK(net.sw(0).barrier_drops() == 0);
  // The node answers with a routed worm: route byte 3, then the message; n3 receives a plain
  // barrier message.
  std::vector<std::uint8_t> w{3};
  const auto m = encode_message({MsgType::Distribute, 3, 0});
  w.insert(w.end(), m.begin(), m.end());
  const Time back = 4 * kUs;
  net.node(1).inject_raw(w, back);
  run_for(2 * kUs);
  REQUIRE(got[3].size() == 1);
  auto d = decode_message(got[3][0].bytes);
  REQUIRE(d);
  CHECK(d->type == MsgType::Distribute);
  CHECK(got[3][0].at == back + T.ld + T.rd + T.sd + (kMessageFlits - 1) * T.cp + T.ld);
  // RELEASE clears the spill entry (the unit answers not-found); later messages are dropped.
  net.node(1).inject_raw(encode_config({ConfigOp::Release, 3, 0, 0}), 7 * kUs);
  net.node(2).inject_raw(reduce(3), 8 * kUs);
  run_for(5 * kUs);
  REQUIRE(got[1].size() == 3);
  CHECK(decode_response(got[1][2].bytes)->resp.status == ConfigStatus::NotFound);
  CHECK(net.sw(0).barrier_spilled() == 1);
  CHECK(net.sw(0).barrier_drops() == 1);
}
