// The timeline recorder on a small network in-process: a single packet's spans lie exactly where
// the link and switch parameters put them, and the window limits what is recorded.
//
// A flit sent at t is in the receiver at t + ld. A switch sends a header rd + sd after it
// arrived (the route byte stripped) and streams the rest at one flit per cp (cp <= rd), so a
// worm of L flits into the switch spends, from its header's arrival to its tail's departure,
//   hop = rd + sd + (L - 2) * cp.
#include <catch2/catch.hpp>

#include "platform/sim/timeline.hpp"
#include "tb/common/test_params.hpp"
#include "tb/fabric/fabric_fixture.hpp"
#include "tb/timeline/trace_check.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {

// Odd values, so a formula that swaps or drops a term cannot pass by coincidence.
ParamValues odd_timing() { return test_params({"link.ld=23ns", "link.cp=12.5ns", "switch.rd=140ns", "switch.sd=3ns", "fc.fc=1.5ns"}); }

nlohmann::json one_of(const std::vector<nlohmann::json>& v, const std::string& name, int pid, int tid = -1) {
  for (const auto& e : v)
    if (e["name"] == name && e["pid"] == pid && (tid < 0 || e["tid"] == tid)) return e;
  FAIL("no event '" << name << "' on pid " << pid << " tid " << tid);
  return {};
}

}  // namespace

TEST_CASE("a single packet's link, hop and packet spans follow from ld, cp, rd and sd", "[timeline]") {
  ParamValues pv = odd_timing();
  Timing T(pv);
  REQUIRE(T.cp <= T.rd);
  Network net(pv, 1);
  build_chain(net, 2);  // n0 on sw0.p0 -> sw0.p2 -> sw1.p3 -> sw1.p1 to n1
  Timeline tl(0, kNever);
  tl.observe_network(net);
  const Time t0 = 1 * kUs;
  const std::uint32_t payload = 40;
  const std::uint32_t id = net.node(0).inject(1, payload, t0);
  run_for(50 * kUs);
  const PacketRecord& r = net.packets()[id];
  REQUIRE(r.deliveries == 1);
  nlohmann::json doc;
  const auto bad = check_trace(tl.text({{"seed", 1}}), doc);
  INFO(bad.size() << " problems, first: " << (bad.empty() ? "" : bad.front()));
  REQUIRE(bad.empty());

  const Time L = 2 + 2 + payload + 1;  // route bytes, type, payload, CRC
  const std::string pkt = "pkt " + std::to_string(id);
  const auto X = trace_events(doc, "X", "link");
  // The source's link: header departs at t0, tail (L - 1) cp later.
  const auto out = one_of(X, pkt, tl.node_pid(0), Timeline::node_tid(NodeTrack::LinkOut));
  CHECK(trace_ps(out["ts"]) == t0);
  CHECK(trace_ps(out["dur"]) == (L - 1) * T.cp);
  // Into sw0.p0: header arrives ld later.
  const auto in = one_of(X, pkt, tl.switch_pid(0), Timeline::port_tid(0, false));
  CHECK(trace_ps(in["ts"]) == t0 + T.ld);
  // Hop through sw0 (L flits in), then sw1 (L - 1 flits in).
  const auto hops = trace_events(doc, "b", "hop");
  const auto ends = trace_events(doc, "e", "hop");
  REQUIRE(hops.size() == 2);
  REQUIRE(ends.size() == 2);
  const Time in0 = t0 + T.ld, in1 = in0 + T.rd + T.sd + T.ld;
  for (int s = 0; s < 2; ++s) {
    const auto b = one_of(hops, "hop " + pkt, tl.switch_pid(s));
    nlohmann::json e;
    for (const auto& x : ends) if (x["id"] == b["id"]) e = x;
    REQUIRE(e.is_object());
    const Time flits = L - static_cast<Time>(s);
    INFO("sw" << s);
    CHECK(trace_ps(b["ts"]) == (s == 0 ? in0 : in1));
    CHECK(trace_ps(e["ts"]) - trace_ps(b["ts"]) == T.rd + T.sd + (flits - 2) * T.cp);
  }
  // The packet: from its header leaving n0 to its tail in n1, as the packet table has it.
  const auto pb = one_of(trace_events(doc, "b", "packet"), pkt, tl.node_pid(0));
  const auto pe = trace_events(doc, "e", "packet");
  REQUIRE(pe.size() == 1);
  CHECK(trace_ps(pb["ts"]) == r.injected);
  CHECK(trace_ps(pe[0]["ts"]) == r.tail_arrival);
  CHECK(doc["otherData"]["seed"] == 1);
}

TEST_CASE("the window keeps the events that start in it, whole", "[timeline]") {
  ParamValues pv = odd_timing();
  Network net(pv, 1);
  build_chain(net, 1);
  // Three packets 2 us apart; the window [2.5us, 4.5us) holds only the second's spans.
  Timeline tl(2500 * kNs, 4500 * kNs);
  tl.observe_network(net);
  std::vector<std::uint32_t> ids;
  for (int k = 0; k < 3; ++k) ids.push_back(net.node(0).inject(1, 100, (1 + 2 * k) * kUs + 600 * kNs));
  run_for(20 * kUs);
  nlohmann::json doc;
  REQUIRE(check_trace(tl.text({{"seed", 1}}), doc).empty());
  std::set<std::string> names;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "M") continue;
    if (e["ph"] != "e") {
      CHECK(trace_ps(e["ts"]) >= 2500 * kNs);
      CHECK(trace_ps(e["ts"]) < 4500 * kNs);
    }
    if (e.contains("args") && e["args"].contains("packet")) names.insert(e["args"]["packet"].get<std::string>());
  }
  CHECK(names == std::set<std::string>{"pkt " + std::to_string(ids[1])});
  // The second packet's spans are all there: 2 links, 1 hop, 1 packet.
  CHECK(trace_events(doc, "X", "link").size() == 4);
  CHECK(trace_events(doc, "b", "hop").size() == 1);
  CHECK(trace_events(doc, "b", "packet").size() == 1);
}
