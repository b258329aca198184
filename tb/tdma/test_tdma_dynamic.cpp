// The dynamic part of TDMA (platform/tdma/dynamic.hpp): stream changes exchanged over the hosts'
// control network, the switch-over at a cycle boundary on every node or none. Expectations are
// derived here from the parameters (control-network latency and per-byte cost, node count, PCI
// timing, slot and cycle), not from the run's plan or earlier runs.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "hw/base/error.hpp"
#include "hw/pci/pci_bus.hpp"
#include "platform/tdma/tdma_run.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
using namespace sanvp::tdma;

namespace {

// On tdma-a (n0, n1 on one switch, n2, n3 on the other): n2 adds stream 40 at 3 ms, n3 removes
// its stream 12 at 4 ms (processed once the first switch-over is behind every host).
const char* kStreams = R"(name: dyn
sync: {master: 0}
streams:
  - {id: 10, src: 1, dst: 3, period: 10, deadline: 10, slots: 1}
  - {id: 12, src: 3, dst: 1, period: 40, deadline: 40, slots: 1}
changes:
  - {at: 3ms, add: {id: 40, src: 2, dst: 0, period: 20, deadline: 20, slots: 1}}
  - {at: 4ms, remove: 12}
)";

// Stream 41 needs all ten slots of n1's link per period, which stream 10 already uses one of.
const char* kRejected = R"(name: dyn-rejected
sync: {master: 0}
streams:
  - {id: 10, src: 1, dst: 3, period: 10, deadline: 10, slots: 1}
changes:
  - {at: 2ms, add: {id: 41, src: 1, dst: 2, period: 10, deadline: 10, slots: 10}}
)";

constexpr Time kSlot = 30 * kUs;          // tdma.slot (default)
constexpr Time kStart = 200 * kUs;        // tdma.sync.start (default)
constexpr std::int64_t kCycleSlots = 40;  // lcm(10, 20, 40, sync 40)
constexpr int kNodes = 4;

RunResult run(std::vector<std::string> sets, const char* streams = kStreams, std::int64_t cycles = 20) {
  ParamValues pv;
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    pv.set(s.substr(0, eq), s.substr(eq + 1), "test");
  }
  RunKnobs k;
  k.cycles = cycles;
  return run_tdma(pv, test::checked_run_options(), load_network_arg("tdma-a", {}), parse_stream_text(streams, "dyn.yaml"), k);
}

const nlohmann::json& tr(const RunResult& r) { return r.report["results"]["tdma_run"]; }

const nlohmann::json& stream(const RunResult& r, std::int64_t id) {
  for (const auto& s : tr(r)["streams_results"])
    if (s["id"] == id) return s;
  throw std::runtime_error("no stream " + std::to_string(id));
}

Time last_ack(const nlohmann::json& sw) {
  Time t = 0;
  for (const auto& a : sw["ack_rx_ps"]) t = std::max(t, a.get<Time>());
  return t;
}

// The switch-over lead derived from the parameters (docs/tdma.md): the last of three 64-byte
// commits, one staging write of a 1024-byte message and the switch words on the 32-bit/33 MHz
// bus, the guard, the staging of the new cycle's first message (stage_ahead 100 us).
Time lead(Time latency) {
  ParamValues pv;
  const PciConfig pci = PciConfig::from_params(pv, "n0.pci");
  const Time ser = 64 * 80 * kNs;  // 64 bytes at tdma.ctl.per_byte = 80 ns
  return (kNodes - 1) * ser + latency + pci.transaction(32 + 1024) + pci.transaction(8) + 10 * kUs + 100 * kUs;
}

void no_misses(const RunResult& r) {
  for (const auto& s : tr(r)["streams_results"]) {
    if (s["admitted"] != true) continue;
    INFO("stream " << s["id"]);
    CHECK(s["delivered"] == s["expected"]);
    CHECK(s["deadline_misses"] == 0);
    CHECK(s["stage_misses"] == 0);
    CHECK(s["blocked_packets"] == 0);
  }
  CHECK(tr(r)["totals"]["reserved_blocked_packets"] == 0);
  CHECK(tr(r)["totals"]["refused_sends"] == 0);
}

// One simulation per process: each latency is its own case; both derive the activation cycle the
// other latency gives, so that the move is checked against the derivation too.
void activation_case(Time latency, Time other) {
  const Time cycle = kCycleSlots * kSlot;
  const RunResult r = run({"tdma.sync.drift=0", "tdma.ctl.latency=" + std::to_string(latency / kUs) + "us"});
  REQUIRE(r.report["status"] == "completed");
  const auto& sw = tr(r)["switch_overs"][0];
  INFO(sw.dump(1));
  REQUIRE(sw["status"] == "switched");
  // The demand reaches the last host after 3 messages and the latency, its ack the coordinator
  // one message and a latency later, after the host loaded its table (a few us of PCI).
  const Time ser = 64 * 80 * kNs;
  const Time ack = last_ack(sw);
  CHECK(sw["request_ps"] == 3 * kMs);
  CHECK(ack >= 3 * kMs + 4 * ser + 2 * latency);
  CHECK(ack <= 3 * kMs + 4 * ser + 2 * latency + 40 * kUs);
  CHECK(sw["commit_ps"] == ack);
  // The first boundary at least the lead after the last ack (ideal clocks: RTC = global time).
  auto boundary = [&](Time lat, Time last) {
    return static_cast<std::int64_t>(std::ceil(static_cast<double>(last + lead(lat) - kStart) / static_cast<double>(cycle)));
  };
  const std::int64_t expected = boundary(latency, ack);
  CHECK(sw["activation_cycle"] == expected);
  CHECK(sw["activation_slot"] == expected * kCycleSlots);
  CHECK(tr(r)["switch_lead_ps"] == lead(latency));
  // The other latency moves the last ack by twice the difference (demand, ack) and the lead by it.
  const std::int64_t moved = boundary(other, ack + 2 * (other - latency));
  CHECK((other > latency ? moved > expected : moved < expected));
  no_misses(r);
}

}  // namespace

TEST_CASE("TDMA dynamic: the activation cycle is the one derived from the parameters (latency 100 us)", "[tdma][dynamic]") {
  activation_case(100 * kUs, 2000 * kUs);
}

TEST_CASE("TDMA dynamic: the activation cycle moves as derived with a control-network latency of 2 ms", "[tdma][dynamic]") {
  activation_case(2000 * kUs, 100 * kUs);
}

TEST_CASE("TDMA dynamic: under +-100 ppm every node switches at the same boundary within the sync precision and nothing is missed",
          "[tdma][dynamic]") {
  const RunResult r = run({});
  REQUIRE(r.report["status"] == "completed");
  const auto& t = tr(r);
  INFO(t["switch_overs"].dump(1));
  for (const auto& sw : t["switch_overs"]) {
    REQUIRE(sw["status"] == "switched");
    for (const auto& at : sw["switched_at_ps"]) {
      REQUIRE(!at.is_null());
      // The boundary of the activation slot on the master's clock (the probes date it).
      CHECK(std::llabs(at.get<std::int64_t>() - static_cast<std::int64_t>(kStart + sw["activation_slot"].get<std::int64_t>() * kSlot)) <
            static_cast<std::int64_t>(sw["activation_slot"].get<std::int64_t>() * kSlot / 5000 + 2 * kUs));  // 200 ppm of the master
    }
    CHECK(sw["spread_ps"] <= t["switch_spread_bound_ps"]);
  }
  no_misses(r);
}

TEST_CASE("TDMA dynamic: an added stream sends from its activation cycle on and not before and a removed one stops there", "[tdma][dynamic]") {
  const RunResult r = run({"tdma.sync.drift=0"});
  REQUIRE(r.report["status"] == "completed");
  const auto& t = tr(r);
  INFO(t["switch_overs"].dump(1));
  const auto& add = t["switch_overs"][0];
  const auto& rem = t["switch_overs"][1];
  REQUIRE(add["status"] == "switched");
  REQUIRE(rem["status"] == "switched");
  const std::int64_t a1 = add["activation_slot"], c1 = add["activation_cycle"], a2 = rem["activation_slot"], c2 = rem["activation_cycle"];
  CHECK(c2 > c1);
  // Stream 40 (period 20): 2 messages per cycle from cycle c1 on; its first in the activation cycle.
  const auto& s40 = stream(r, 40);
  CHECK(s40["admitted"] == true);
  CHECK(s40["expected"] == 2 * (20 - c1));
  CHECK(s40["first_slot"] >= a1);
  CHECK(s40["first_slot"] < a1 + 20);
  // Stream 12 (period 40): one per cycle until c2, none from its boundary on.
  const auto& s12 = stream(r, 12);
  CHECK(s12["expected"] == c2);
  CHECK(s12["sent"] == c2);
  CHECK(s12["last_slot"] < a2);
  CHECK(s12["last_slot"] >= a2 - kCycleSlots);
  CHECK(stream(r, 10)["expected"] == 4 * 20);
  no_misses(r);
}

TEST_CASE("TDMA dynamic: a demand the admission test rejects keeps the running schedule and the report says why", "[tdma][dynamic]") {
  const RunResult r = run({"tdma.sync.drift=0"}, kRejected, 10);
  REQUIRE(r.report["status"] == "completed");
  const auto& t = tr(r);
  const auto& sw = t["switch_overs"][0];
  INFO(sw.dump(1));
  CHECK(sw["accepted"] == false);
  CHECK(sw["status"] == "rejected");
  CHECK(sw["reason"].get<std::string>().find("no 10 contiguous free slot") != std::string::npos);
  CHECK(sw["activation_slot"] == -1);
  const auto& s41 = stream(r, 41);
  CHECK(s41["admitted"] == false);
  CHECK(s41["reason"] == sw["reason"]);
  CHECK(stream(r, 10)["expected"] == 40);
  no_misses(r);
  CHECK(sw["what"].get<std::string>().find("add stream 41") == 0);
}

TEST_CASE("TDMA dynamic: a host that never acknowledges keeps every node on the running schedule", "[tdma][dynamic]") {
  const RunResult r = run({"tdma.sync.drift=0", "tdma.ctl.mute=3"});
  REQUIRE(r.report["status"] == "completed");
  const auto& sw = tr(r)["switch_overs"][0];
  INFO(sw.dump(1));
  CHECK(sw["status"] == "waiting for acknowledgements: not switched");
  CHECK(sw["ack_rx_ps"][3].is_null());
  CHECK(sw["commit_ps"].is_null());
  for (const auto& at : sw["switched_at_ps"]) CHECK(at.is_null());
  CHECK(stream(r, 40)["sent"] == 0);
  CHECK(stream(r, 12)["sent"] == 20);  // the removal waits behind it
  no_misses(r);
}

TEST_CASE("TDMA dynamic: a latency that puts the activation boundary past the run's end switches no node", "[tdma][dynamic]") {
  // Acks at 3 ms + 2 x 9 ms = 21 ms, within the run (20 cycles of 1.2 ms from 0.2 ms); the boundary
  // at least the lead (> 9 ms) later, past its end.
  const RunResult r = run({"tdma.sync.drift=0", "tdma.ctl.latency=9ms"});
  REQUIRE(r.report["status"] == "completed");
  const auto& sw = tr(r)["switch_overs"][0];
  INFO(sw.dump(1));
  CHECK(sw["status"] == "past the run's end: not switched");
  CHECK(sw["activation_cycle"] >= 20);
  CHECK(sw["commit_ps"].is_null());
  for (const auto& at : sw["switched_at_ps"]) CHECK(at.is_null());
  CHECK(stream(r, 40)["sent"] == 0);
  no_misses(r);
}

TEST_CASE("TDMA dynamic: bad changes are one-line errors naming the file and line and key", "[tdma][dynamic]") {
  auto err = [](const std::string& text) {
    try {
      const StreamFile f = parse_stream_text(text, "c.yaml");
      ParamValues pv;
      plan_tdma_run(pv, 1, load_network_arg("tdma-a", {}), f, RunKnobs{});
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = "streams:\n  - {id: 10, src: 1, dst: 3, period: 10, deadline: 10, slots: 1}\nchanges:\n";
  CHECK_THAT(err(head + "  - {at: 2ms, remove: 10}\n  - {at: 1ms, remove: 10}\n"), Catch::Contains("c.yaml:5") && Catch::Contains("changes[1].at"));
  CHECK_THAT(err(head + "  - {at: 2ms}\n"), Catch::Contains("c.yaml:4") && Catch::Contains("give one of add"));
  CHECK_THAT(err(head + "  - {at: 2ms, remove: 10, when: 3}\n"), Catch::Contains("c.yaml:4") && Catch::Contains("when"));
  CHECK_THAT(err(head + "  - {at: 2ms, remove: 99}\n"), Catch::Contains("changes[0].remove: 99"));
  CHECK_THAT(err(head + "  - {at: 2ms, add: {id: 10, src: 1, dst: 2, period: 10, deadline: 10, slots: 1}}\n"),
             Catch::Contains("changes[0].add.id: stream id 10 was already used"));
  CHECK_THAT(err(head + "  - {at: 2ms, add: {id: 11, src: 1, dst: 2, period: 10, deadline: 12, slots: 1}}\n"),
             Catch::Contains("c.yaml:4") && Catch::Contains("changes[0].add.deadline"));
}
