// Link fault injection (hw/link/link_faults.hpp): rates within binomial bounds of the configured
// probabilities, scheduled cuts, worms with a bad route byte consumed and counted by the switch,
// CRC errors flagged by the NIC's receive DMA, and determinism from the seed. Every faulted
// packet is accounted for (the run completes, exit 0, nothing in flight, the audit passes).
#include <catch2/catch.hpp>
#include <tlm_utils/simple_initiator_socket.h>

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fabric_fixture.hpp"
#include "hw/base/endian.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/recv_dma.hpp"
#include "hw/nic/sram.hpp"
#include "platform/sim/run.hpp"
#include "tb/common/test_run.hpp"
#include "tb/firmware/run_util.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {

// |k - n p| within 5 standard deviations of Binomial(n, p) (plus one for tiny n p).
void check_binomial(std::uint64_t k, std::uint64_t n, double p, const std::string& what) {
  const double mean = static_cast<double>(n) * p;
  const double sd = std::sqrt(static_cast<double>(n) * p * (1 - p));
  INFO(what << ": " << k << " of " << n << ", p=" << p << ", expected " << mean << " +- " << 5 * sd);
  CHECK(std::fabs(static_cast<double>(k) - mean) <= 5 * sd + 1);
}

// Every packet accounted for: delivered intact, found bad at a sink (faulted), or ended in the
// network (consumed by a switch / lost on a cut); a bad one that no fault touched is an error.
void check_accounted(const RunResult& res) {
  const auto& r = res.report["results"];
  CHECK(res.status == RunStatus::Completed);
  CHECK(res.exit_code == 0);
  CHECK(r["in_flight"]["count"] == 0);
  const auto& P = r["faults"]["packets"];
  const auto created = r["packets_created"].get<std::uint64_t>();
  const auto delivered = r["packets_delivered"].get<std::uint64_t>();
  CHECK(r["packets_corrupt"].get<std::uint64_t>() == P["faulted_corrupt"].get<std::uint64_t>());
  CHECK(created == delivered + P["faulted_corrupt"].get<std::uint64_t>() + P["ended_in_network"].get<std::uint64_t>());
}

RunResult run_default(ParamValues& pv, RunSpec spec = {}) {
  if (!spec.topology) spec = default_scenario(pv);
  return run_simulation(pv, checked_run_options(), spec);
}

}  // namespace

TEST_CASE("link faults: drop and corruption rates within binomial bounds", "[faults]") {
  const double drop = 0.002, corrupt = 0.003;
  ParamValues pv = test_params({"fault.drop=0.002", "fault.corrupt=0.003", "sim.duration=400us"});
  const RunResult res = run_default(pv);
  check_accounted(res);
  const auto& F = res.report["results"]["faults"];
  std::uint64_t d = 0, dn = 0, c = 0, cn = 0;
  REQUIRE(F["links"].size() == 16);  // every direction of the 8 node links
  for (const auto& l : F["links"]) {
    CHECK(l["config"]["drop"] == drop);
    CHECK(l["config"]["corrupt"] == corrupt);
    check_binomial(l["flits_dropped"], l["drop_eligible"], drop, l["link"].get<std::string>() + " drops");
    check_binomial(l["flits_corrupted"], l["corrupt_eligible"], corrupt, l["link"].get<std::string>() + " corruptions");
    d += l["flits_dropped"].get<std::uint64_t>(); dn += l["drop_eligible"].get<std::uint64_t>();
    c += l["flits_corrupted"].get<std::uint64_t>(); cn += l["corrupt_eligible"].get<std::uint64_t>();
  }
  REQUIRE(dn > 100000);  // enough flits for the bounds to mean something
  check_binomial(d, dn, drop, "all drops");
  check_binomial(c, cn, corrupt, "all corruptions");
  // Nearly every 260-flit packet met a fault; none was reported as a scoreboard error.
  CHECK(F["packets"]["faulted"].get<std::uint64_t>() > 0);
  CHECK(F["packets"]["faulted_corrupt"].get<std::uint64_t>() > 0);
}

TEST_CASE("link faults: truncation rate within binomial bounds and short packets fail at the sink", "[faults]") {
  // 256-byte payloads: every worm is longer than the 64-flit truncation prefix, so every
  // truncation decided happens.
  const double p = 0.05;
  ParamValues pv = test_params({"fault.truncate=0.05", "sim.duration=400us"});
  const RunResult res = run_default(pv);
  check_accounted(res);
  const auto& F = res.report["results"]["faults"];
  std::uint64_t t = 0, w = 0;
  for (const auto& l : F["links"]) {
    check_binomial(l["worms_truncated"], l["worms"], p, l["link"].get<std::string>() + " truncations");
    t += l["worms_truncated"].get<std::uint64_t>();
    w += l["worms"].get<std::uint64_t>();
  }
  REQUIRE(w > 1000);
  check_binomial(t, w, p, "all truncations");
  CHECK(F["packets"]["faulted_corrupt"].get<std::uint64_t>() > 0);
  CHECK(F["packets"]["faulted_delivered_intact"] == 0);
}

TEST_CASE("link faults: a scheduled cut carries no flit from T1 to T2 and traffic resumes after", "[faults]") {
  const Time t1 = 100 * kUs, t2 = 200 * kUs;
  ParamValues pv = test_params({"fault.cuts=n0.out@100us-200us; sw0.p1.out@100us-200us", "sim.duration=400us"});
  RunSpec spec = default_scenario(pv);
  std::uint64_t during = 0, ends0 = 0, ends1 = 0, after0 = 0, after1 = 0, before0 = 0;
  spec.traffic = [&](Network& net) {
    auto watch = [&](const char* path, std::uint64_t& after, std::uint64_t& ends) {
      net.channel(path).set_rx_observer([&, path](const Flit& f, Time t) {
        if (t < t1 && std::string(path) == "n0.out") ++before0;
        if (t >= t1 && t < t2) {
          // Only the end mark of a worm whose head crossed before the cut (the link ends it),
          // at most once per direction.
          if (f.tail && ends == 0) ++ends; else ++during;
        }
        if (t >= t2) ++after;
      });
    };
    watch("n0.out", after0, ends0);
    watch("sw0.p1.out", after1, ends1);
    TrafficConfig tc = TrafficConfig::from_params(pv, "");
    tc.stop = 400 * kUs;
    net.start_traffic(tc);
  };
  const RunResult res = run_default(pv, spec);
  check_accounted(res);
  CHECK(during == 0);
  CHECK(before0 > 0);
  CHECK(after0 > 1000);
  CHECK(after1 > 1000);
  const auto& F = res.report["results"]["faults"];
  REQUIRE(F["links"].size() == 2);
  for (const auto& l : F["links"]) {
    REQUIRE(l["config"]["cuts"].size() == 1);
    CHECK(l["config"]["cuts"][0]["from_ps"] == t1);
    CHECK(l["config"]["cuts"][0]["to_ps"] == t2);
    CHECK(l["flits_cut"].get<std::uint64_t>() > 0);
  }
  CHECK(F["total"]["worms_lost"].get<std::uint64_t>() > 0);  // whole packets sent into the cut
  CHECK(F["packets"]["ended_in_network"].get<std::uint64_t>() > 0);
}

TEST_CASE("link faults: a cut naming a missing link is refused", "[faults][errors]") {
  ParamValues pv = test_params({"fault.cuts=sw9.p1.out@1us-2us"});
  CHECK_THROWS_WITH(run_default(pv), Catch::Contains("no link direction 'sw9.p1.out'"));
}

TEST_CASE("switch: worms routed to a missing or unconnected port are consumed and counted", "[faults][routes]") {
  ParamValues pv;
  Network net(pv, 1);
  net.add_switch(8);
  net.add_node(0, 0);
  net.add_node(0, 1);
  net.build();
  net.compute_shortest_routes();
  const std::uint32_t a = net.node(0).inject_route(1, {5}, 64, 1 * kUs);    // unconnected port
  const std::uint32_t b = net.node(0).inject_route(1, {200}, 64, 1 * kUs);  // no such port
  const std::uint32_t c = net.node(0).inject(1, 64, 1 * kUs);               // a good one behind them
  run_for(50 * kUs);
  CHECK(net.sw(0).consumed_worms() == 2);
  CHECK(net.sw(0).bad_route_worms() == 2);
  CHECK(net.packets()[a].dropped);
  CHECK(net.packets()[b].dropped);
  CHECK(net.packets()[c].deliveries == 1);
  CHECK(net.sw(0).consumed_ends().counts().size() == 2);
}

TEST_CASE("link faults: a corrupted route byte is consumed and counted by the switch and the run completes", "[faults][routes]") {
  // Four nodes on an 8-port switch: a flipped route byte mostly names an unconnected port.
  ParamValues pv = test_params({"fault.corrupt=0.01", "sim.duration=300us"});
  RunSpec spec;
  spec.topology = [](Network& net) {
    const int sw = net.add_switch(8);
    for (int p = 0; p < 4; ++p) net.add_node(sw, p);
  };
  spec.scenario_json = {{"name", "four"}};
  const RunResult res = run_default(pv, spec);
  check_accounted(res);
  const auto& S = res.report["results"]["switches"];
  REQUIRE(S.size() == 1);
  CHECK(S[0]["bad_route"].get<std::uint64_t>() > 0);
  CHECK(S[0]["worms_consumed"].get<std::uint64_t>() >= S[0]["bad_route"].get<std::uint64_t>());
  CHECK(res.report["results"]["faults"]["total"]["worms_consumed_by_switches"] == S[0]["worms_consumed"]);
}

namespace {
struct CoreStub : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<CoreStub> socket{"socket"};
  explicit CoreStub(sc_core::sc_module_name n) : sc_module(n) {}
};
struct NoControl : ControlReceiver {
  void control(bool, Time) override {}
};
// Sends `packets` packets (type 0x0400, 100 bytes of payload, correct CRC-8), one every 2 us.
struct PacketSender : sc_core::sc_module {
  SC_HAS_PROCESS(PacketSender);
  PacketSender(sc_core::sc_module_name n, LinkChannel& ch, int packets) : sc_module(n), ch_(ch), packets_(packets) {
    SC_THREAD(run);
  }
  void run() {
    for (int k = 0; k < packets_; ++k) {
      std::vector<std::uint8_t> b{0x04, 0x00};
      for (int i = 0; i < 100; ++i) b.push_back(static_cast<std::uint8_t>(k * 31 + i * 7));
      std::uint8_t crc = 0;
      for (auto x : b) crc = crc8_update(crc, x);
      b.push_back(crc);
      const Time t0 = now_ps();
      for (std::size_t i = 0; i < b.size(); ++i)
        ch_.send(Flit{static_cast<std::uint32_t>(k), b[i], i == 0, i + 1 == b.size()}, t0 + i * ch_.timing().cp);
      sc_core::wait(sc_core::sc_time::from_value(2 * kUs));
    }
  }
  LinkChannel& ch_;
  int packets_;
};
}  // namespace

TEST_CASE("receive DMA: a packet a link fault damaged is flagged to firmware by status bit and RX_CRC_ERRORS", "[faults][nic]") {
  namespace r = nic::map::nic;
  nic::Sram sram("sram", 8192);
  CoreStub core("core");
  core.socket.bind(sram.socket);
  std::uint32_t irqs = 0;
  FlowControlConfig fc;
  nic::RecvDma rx("recv", sram, [&](std::uint32_t bits) { irqs |= bits; }, fc);
  LinkTiming lt;
  LinkChannel ch("sw0.p1.out", lt);
  NoControl ctl;
  rx.attach_input(&ch);
  ch.bind(&rx, &ctl);
  // Every worm truncated (1..64 of its 103 flits arrive): each arrives short.
  LinkFaultConfig cfg;
  cfg.truncate = 1.0;
  ch.set_faults(std::make_unique<LinkFaults>(cfg, 1, ch.path()));
  // What the receiver got, to derive the expected verdict of each packet.
  std::vector<std::vector<std::uint8_t>> got;
  ch.set_rx_observer([&](const Flit& f, Time) {
    if (f.head) got.emplace_back();
    got.back().push_back(f.data);
  });
  const int n = 8;
  const std::uint32_t ring = 0x100, bufs = 0x400;
  for (int i = 0; i < n; ++i) {
    sram.put32(ring + 8 * i, bufs + 256 * i, nic::SramWriter::kLoader);
    sram.put32(ring + 8 * i + 4, r::kRxOwn, nic::SramWriter::kLoader);
  }
  rx.reg_write(r::kRxRing, ring);
  rx.reg_write(r::kRxSize, n);
  rx.reg_write(r::kRxBufSize, 256);
  rx.reg_write(r::kRxCtrl, 1);
  PacketSender tx("tx", ch, n);
  run_for(40 * kUs);
  REQUIRE(got.size() == static_cast<std::size_t>(n));
  std::uint32_t tail = 0, errors = 0;
  REQUIRE(rx.reg_read(r::kRxTail, tail));
  REQUIRE(rx.reg_read(r::kRxCrcErrors, errors));
  CHECK(tail == static_cast<std::uint32_t>(n));
  std::uint32_t flagged = 0, expected = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t st = get_be32(sram.data() + ring + 8 * i + 4);
    const auto& b = got[static_cast<std::size_t>(i)];
    CHECK(b.size() < 103);  // truncated
    std::uint8_t crc = 0;
    for (std::size_t k = 0; k + 1 < b.size(); ++k) crc = crc8_update(crc, b[k]);
    const bool bad = b.size() < 2 || crc != b.back();
    INFO("packet " << i << ": " << b.size() << " bytes, status 0x" << std::hex << st);
    CHECK(((st & r::kRxCrcErr) != 0) == bad);
    CHECK((st & r::kRxOwn) == 0);
    if (st & r::kRxCrcErr) ++flagged;
    if (bad) ++expected;
  }
  CHECK(flagged == expected);
  CHECK(errors == flagged);
  CHECK(flagged >= static_cast<std::uint32_t>(n - 1));  // a short packet passes its CRC by chance 1 in 256
  CHECK((irqs & r::kIrqRxDone) != 0);
  CHECK(rx.stats().crc_errors == flagged);
}

namespace {
nlohmann::json run_cli(const std::string& args, const std::string& report) {
  const Proc p = sanvp::test::run(fmt::format("'{}' run --check --set sim.duration=100us --set fault.drop=1e-3 "
                                              "--set fault.corrupt=1e-3 --set fault.truncate=0.01 "
                                              "--set 'fault.cuts=n2.out@20us-40us' {} --report {}",
                                              SANVP_BIN, args, report));
  INFO(p.out << p.err);
  REQUIRE(p.rc == 0);
  return nlohmann::json::parse(slurp(report));
}
}  // namespace

TEST_CASE("link faults: same seed gives an identical report and another seed another fault pattern", "[faults][cli]") {
  const std::string dir = SANVP_BINARY_DIR;
  run_cli("--seed 7", dir + "/faults_a.json");
  run_cli("--seed 7", dir + "/faults_b.json");
  CHECK(slurp(dir + "/faults_a.json") == slurp(dir + "/faults_b.json"));
  const nlohmann::json a = run_cli("--seed 7", dir + "/faults_a.json");
  const nlohmann::json c = run_cli("--seed 8", dir + "/faults_c.json");
  CHECK(a["results"]["faults"]["links"] != c["results"]["faults"]["links"]);
  // The report lists the configuration.
  CHECK(a["params"]["fault.drop"]["value"] == "1e-3");
  CHECK(a["params"]["fault.cuts"]["value"] == "n2.out@20us-40us");
  for (const auto& l : a["results"]["faults"]["links"]) {
    CHECK(l["config"]["drop"] == 1e-3);
    CHECK(l["config"]["cuts"].size() == (l["link"] == "n2.out" ? 1u : 0u));
  }
}
