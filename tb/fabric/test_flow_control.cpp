// STOP/GO flow control and back-pressure, checked against the parameters.
#include <catch2/catch.hpp>
#include <vector>

#include "fabric_fixture.hpp"
#include "hw/base/error.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {

struct ControlLog {
  std::vector<Time> stop_eff, go_eff;  // when the upstream sender obeys them
  int bad_stop = 0, bad_go = 0, max_occ = 0;
};

// Watches one FlowController: every STOP must leave at occupancy ks, every GO at kg.
void watch(FlowController& fc, ControlLog& log, const Timing& T) {
  fc.set_control_observer([&log, &T](Time t, bool stop, int occ) {
    if (stop) { log.stop_eff.push_back(t + T.ld + 2 * T.fc); if (occ != T.ks) ++log.bad_stop; }
    else { log.go_eff.push_back(t + T.ld + 2 * T.fc); if (occ != T.kg) ++log.bad_go; }
  });
}

// Departures on a channel must be exactly cp apart unless a STOP took effect in between; then
// the next departure happens exactly when GO takes effect (the sender's buffer did not starve).
struct DepartureLog { std::vector<Time> t; };

void check_no_bubbles(const DepartureLog& d, const ControlLog& c, const Timing& T, const char* what) {
  INFO(what);
  REQUIRE(d.t.size() > 2);
  std::size_t violations = 0;
  for (std::size_t i = 1; i < d.t.size(); ++i) {
    const Time a = d.t[i - 1], b = d.t[i];
    if (b - a == T.cp) continue;
    // Was the sender stopped in (a, b]? Then b must be a GO-effective instant.
    bool stopped_between = false, go_at_b = false;
    for (Time s : c.stop_eff) if (s > a && s <= b) stopped_between = true;
    for (Time g : c.go_eff) if (g == b) go_at_b = true;
    if (!(stopped_between && go_at_b)) {
      ++violations;
      UNSCOPED_INFO("gap " << (b - a) << "ps between departures at " << a << " and " << b);
    }
  }
  CHECK(violations == 0);
}

// One source sends one long packet through one switch to a sink paused for `pause`.
void stop_go_scenario(int bl, int ks, int kg) {
  ParamValues pv;
  pv.set("fc.bl", std::to_string(bl), "test");
  pv.set("fc.ks", std::to_string(ks), "test");
  pv.set("fc.kg", std::to_string(kg), "test");
  Timing T(pv);
  Network net(pv, 1);
  build_chain(net, 1);
  ControlLog sw_in, sink_in;
  watch(net.sw(0).input_buffer(0), sw_in, T);
  watch(net.node(1).input_buffer(), sink_in, T);
  DepartureLog src_out, sw_out;
  net.channel("n0.out").set_observer([&](const Flit&, Time t) { src_out.t.push_back(t); });
  net.channel("sw0.p1.out").set_observer([&](const Flit&, Time t) { sw_out.t.push_back(t); });
  const std::uint32_t payload = 1500;
  const Time pause_end = 20 * kUs;
  net.node(1).pause_receive(0, pause_end);
  const std::uint32_t id = net.node(0).inject(1, payload, 0);
  run_for(pause_end + (payload + 100) * T.cp + 10 * kUs);

  INFO("bl=" << bl << " ks=" << ks << " kg=" << kg);
  const PacketRecord& r = net.packets()[id];
  REQUIRE(r.deliveries == 1);
  // Both buffers filled and sent STOP at exactly ks, GO at exactly kg.
  CHECK(sw_in.stop_eff.size() >= 1);
  CHECK(sink_in.stop_eff.size() >= 1);
  CHECK(sw_in.bad_stop == 0);
  CHECK(sw_in.bad_go == 0);
  CHECK(sink_in.bad_stop == 0);
  CHECK(sink_in.bad_go == 0);
  // Occupancy peaks at exactly ks + (flits in flight during the STOP round trip), never above bl.
  const int peak = ks + T.n_rt();
  CHECK(net.sw(0).input_buffer(0).stats().max_occupancy == peak);
  CHECK(net.node(1).input_buffer().stats().max_occupancy == peak);
  CHECK(peak <= bl);
  // The sink drains one flit per cp from the end of the pause to the tail: never starved.
  const Time flits_at_sink = 2 + payload + 1;
  CHECK(r.tail_arrival == pause_end + (flits_at_sink - 1) * T.cp);
  // Upstream senders resume exactly at GO and then stream without bubbles.
  check_no_bubbles(sw_out, sink_in, T, "switch output to sink");
  check_no_bubbles(src_out, sw_in, T, "source output to switch");
}

}  // namespace

TEST_CASE("STOP at ks, GO at kg, no overflow, no starvation: defaults", "[flow]") { stop_go_scenario(64, 53, 17); }

// The sweep: one test case (one process) per combination, each a valid configuration.
#define STOP_GO_CASE(bl, ks, kg) \
  TEST_CASE("STOP/GO sweep bl=" #bl " ks=" #ks " kg=" #kg, "[flow]") { stop_go_scenario(bl, ks, kg); }
STOP_GO_CASE(64, 58, 6)
STOP_GO_CASE(60, 53, 17)
STOP_GO_CASE(40, 30, 8)
STOP_GO_CASE(128, 100, 50)
STOP_GO_CASE(256, 200, 17)
STOP_GO_CASE(20, 14, 7)

TEST_CASE("invalid (bl, ks, kg) are rejected with the inequality", "[flow]") {
  LinkTiming lt;
  FlowControlConfig c;
  c.bl = 64; c.ks = 60; c.kg = 17;  // 60 + 6 > 64: overflow
  CHECK_THROWS_WITH(c.validate(lt, 2 * kNs, "x"), Catch::Contains("ks + ceil((2*ld + 2*fc)/cp) - 1 <= bl") && Catch::Contains("66 > 64"));
  c.ks = 53; c.kg = 5;  // (5+1)*6.25 = 37.5ns < 42.52ns: starvation
  CHECK_THROWS_WITH(c.validate(lt, 2 * kNs, "x"), Catch::Contains("(kg+1)*cp >= 2*ld + 2*fc + sd") && Catch::Contains("37.5ns < "));
  c.kg = 6;  // (6+1)*6.25 = 43.75ns >= 42.52ns
  CHECK_NOTHROW(c.validate(lt, 2 * kNs, "x"));
  c.kg = 53;
  CHECK_THROWS_WITH(c.validate(lt, 2 * kNs, "x"), Catch::Contains("kg=53 >= ks=53"));
  c.kg = 17; c.ks = 65;
  CHECK_THROWS_WITH(c.validate(lt, 2 * kNs, "x"), Catch::Contains("ks=65 > bl=64"));
}

namespace {

// Back-pressure: node 2 holds the last switch's output to node 1 with a long worm; node 0's worm
// blocks there. Node 0 stalls only after every buffer on its path has filled: each of the p
// buffers ends at ks + n_rt flits and each switch consumed one route byte, so the source sends
// p*(ks + n_rt + 1) flits and finds STOP at its next slot.
Time stall_time(int p, ParamValues& pv, Time t0) {
  Timing T(pv);
  Network net(pv, 1);
  build_chain(net, p);
  Time stalled = kNever;
  net.node(0).set_stall_observer([&](Time t) { if (stalled == kNever) stalled = t; });
  net.node(2).inject(1, 40000, 0);       // the blocker, first at the last switch
  net.node(0).inject(1, 4000, t0);        // the blocked worm
  run_for(t0 + 20 * kUs);
  return stalled;
}

}  // namespace

#define BACKPRESSURE_CASE(p)                                                                   \
  TEST_CASE("back-pressure stalls the source after the path fills, p=" #p, "[flow]") {        \
    ParamValues pv;                                                                            \
    Timing T(pv);                                                                              \
    const Time t0 = 1 * kUs;                                                                   \
    const Time expect = t0 + static_cast<Time>(p) * static_cast<Time>(T.ks + T.n_rt() + 1) * T.cp; \
    CHECK(stall_time(p, pv, t0) == expect);                                                    \
  }
BACKPRESSURE_CASE(1)
BACKPRESSURE_CASE(2)
BACKPRESSURE_CASE(3)

TEST_CASE("back-pressure equals the FBS paper's GAP1 = bl*p2*cp when bl = ks + n_rt + 1", "[flow]") {
  // With the slack buffer exactly as large as the STOP round trip needs, the paper's
  // approximation (the source stalls after bl*p2 flits) is exact.
  ParamValues pv;
  pv.set("fc.bl", "60", "test");
  Timing T(pv);
  REQUIRE(T.bl == T.ks + T.n_rt() + 1);
  const Time t0 = 1 * kUs;
  const int p2 = 3;
  CHECK(stall_time(p2, pv, t0) == t0 + static_cast<Time>(T.bl) * p2 * T.cp);
}

namespace {
void round_robin(int k) {
  ParamValues pv;
  Network net(pv, 1);
  int sw = net.add_switch(8);
  for (int p = 0; p < 8; ++p) net.add_node(sw, p);
  net.build();
  net.compute_shortest_routes();
  std::vector<int> grants;
  net.sw(0).set_grant_observer([&](Time, int in, int out) { if (out == 7) grants.push_back(in); });
  const int per_source = 12;
  for (int s = 0; s < k; ++s)
    for (int i = 0; i < per_source; ++i) net.node(s).inject(7, 64, 0);
  run_for(200 * kUs);
  REQUIRE(grants.size() == static_cast<std::size_t>(k * per_source));
  for (std::size_t i = 0; i < grants.size(); ++i) {
    INFO("grant " << i);
    CHECK(grants[i] == static_cast<int>(i % static_cast<std::size_t>(k)));
  }
  for (int s = 0; s < k; ++s) CHECK(net.node(s).stats().sent_packets == static_cast<std::uint64_t>(per_source));
}
}  // namespace

TEST_CASE("round-robin: 3 inputs saturating one output rotate strictly", "[arbiter]") { round_robin(3); }
TEST_CASE("round-robin: 7 inputs saturating one output rotate strictly", "[arbiter]") { round_robin(7); }
