// Lost wake-ups (issue "Trustworthy fabric"): the Wakeup idiom, and directed regressions for
// every transmitter — a STOP, then a GO whose wake-up is asked for while an earlier wake-up of
// the same process is pending and will find nothing to do. With a plain sc_event the GO's
// wake-up was discarded and the sender stalled forever. Expected departure times are derived
// from the parameters. The FabricMonitor (on in every Network) checks work conservation too.
#include <catch2/catch.hpp>
#include <tlm_utils/simple_initiator_socket.h>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fabric_fixture.hpp"
#include "hw/nic/send_dma.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"
#include "hw/base/wakeup.hpp"
#include "platform/sim/fabric_monitor.hpp"
#include "platform/sim/packet_audit.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {

// Runs actions at absolute simulated times (a test's stand-in for a downstream flow controller).
// A method, not a thread: an exception thrown while a thread's own stack was in use confuses
// AddressSanitizer (google/sanitizers#189), and the monitor tests expect one.
struct Actor : sc_core::sc_module {
  SC_HAS_PROCESS(Actor);
  std::vector<std::pair<Time, std::function<void()>>> script;
  std::size_t next = 0;
  explicit Actor(sc_core::sc_module_name n, std::vector<std::pair<Time, std::function<void()>>> s)
      : sc_module(n), script(std::move(s)) {
    SC_METHOD(play);
  }
  void play() {
    while (next < script.size() && script[next].first <= now_ps()) script[next++].second();
    if (next < script.size()) next_trigger(delay_to(script[next].first));
  }
};

// A process woken through a Wakeup; records its activations.
struct Sleeper : sc_core::sc_module {
  SC_HAS_PROCESS(Sleeper);
  Wakeup wake;
  std::vector<Time> woke;
  explicit Sleeper(sc_core::sc_module_name n) : sc_module(n) {
    SC_METHOD(run);
    sensitive << wake.event();
    dont_initialize();
  }
  void run() {
    wake.fired();
    woke.push_back(now_ps());
  }
};

// Expected departures: back to back from `first` until STOP takes effect at S, then from GO (G).
std::vector<Time> stop_go_schedule(Time first, Time cp, Time S, Time G, std::size_t n) {
  std::vector<Time> v;
  Time t = first;
  for (std::size_t k = 0; k < n; ++k) {
    if (t >= S && t < G) t = G;
    v.push_back(t);
    t += cp;
  }
  return v;
}

// Runs for `t` and returns the message of the error that stopped the simulation ("" if none).
// SystemC hands an exception thrown by a process on as an sc_report.
std::string run_for_error(Time t) {
  try {
    run_for(t);
  } catch (const sc_core::sc_report& e) {
    return e.get_msg();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Wakeup: every requested time gets its activation, in order, whatever the order of requests") {
  Sleeper s("s");
  Actor a("a", {{0, [&] { s.wake.at(30 * kNs); s.wake.at(10 * kNs); s.wake.at(20 * kNs); s.wake.at(10 * kNs); }},
                {15 * kNs, [&] { s.wake.at(40 * kNs); s.wake.at(15 * kNs); }}});
  run_for(100 * kNs);
  // A plain sc_event keeps only the earliest pending notification: it would wake at 10 and 15 ns only.
  CHECK(s.woke == std::vector<Time>{10 * kNs, 15 * kNs, 20 * kNs, 30 * kNs, 40 * kNs});
  CHECK_FALSE(s.wake.pending());
}

TEST_CASE("test endpoint: a GO asked for while an earlier wake-up is pending still restarts the source") {
  ParamValues pv;
  Timing T(pv);
  Network net(pv, 1);
  build_chain(net, 1);  // n0 -> sw0 -> n1
  std::vector<Time> dep;
  net.node_out(0).set_observer([&](const Flit& f, Time t) { dep.push_back(t); });
  const std::uint32_t pkt = net.node(0).inject(1, 64, 0);
  const Time L = T.ld + 2 * T.fc;  // a control symbol acts this long after it leaves
  // The source sends ahead up to ld; its next wake-up is pending when GO is asked for at 30 ns.
  const Time stop_call = 14 * kNs, go_call = 30 * kNs;
  ControlReceiver* up = net.node(0).output_control();
  Actor a("a", {{stop_call, [&] { up->control(true, stop_call + L); }}, {go_call, [&] { up->control(false, go_call + L); }}});
  run_for(2 * kUs);
  const std::size_t n = net.packets()[pkt].wire_len();
  REQUIRE(dep.size() == n);
  CHECK(dep == stop_go_schedule(0, T.cp, stop_call + L, go_call + L, n));
  CHECK(net.packets()[pkt].deliveries == 1);
}

TEST_CASE("switch output: a GO asked for while the next flit's wake-up is pending still restarts the worm") {
  ParamValues pv;
  Timing T(pv);
  Network net(pv, 1);
  build_chain(net, 1);
  std::vector<Time> dep;
  net.channel("sw0.p1.out").set_observer([&](const Flit& f, Time t) { dep.push_back(t); });
  const std::uint32_t pkt = net.node(0).inject(1, 64, 0);
  const Time L = T.ld + 2 * T.fc;
  const Time t0 = T.ld + T.rd + T.sd;  // first flit after the route byte leaves the switch
  // STOP acts between slots 5 and 6; GO is asked for after slot 5, while slot 6's wake-up is pending.
  const Time stop_call = t0 + 2 * T.cp + kNs, go_call = t0 + 5 * T.cp + 2 * kNs;
  REQUIRE(stop_call + L > t0 + 5 * T.cp);
  REQUIRE(stop_call + L <= t0 + 6 * T.cp);
  REQUIRE(go_call + L > t0 + 6 * T.cp);
  ControlReceiver* out = net.sw(0).output_control(1);
  Actor a("a", {{stop_call, [&] { out->control(true, stop_call + L); }}, {go_call, [&] { out->control(false, go_call + L); }}});
  run_for(2 * kUs);
  const std::size_t n = net.packets()[pkt].wire_len() - 1;  // the route byte stays in the switch
  REQUIRE(dep.size() == n);
  CHECK(dep == stop_go_schedule(t0, T.cp, stop_call + L, go_call + L, n));
  CHECK(net.packets()[pkt].deliveries == 1);
}

namespace {
struct CoreStub : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<CoreStub> socket{"socket"};
  explicit CoreStub(sc_core::sc_module_name n) : sc_module(n) {}
};
struct NullSink : FlitReceiver {
  std::vector<Time> arrivals;
  void receive(const Flit&, Time t) override { arrivals.push_back(t); }
};
}  // namespace

TEST_CASE("NIC send DMA: a GO asked for while an earlier wake-up is pending still restarts the packet") {
  nic::Sram sram("sram", 4096);
  CoreStub core("core");  // the core's port, not used here
  core.socket.bind(sram.socket);
  nic::SendDma dma("send", sram, [](std::uint32_t) {}, 0);
  LinkTiming lt;
  LinkChannel ch("n0.out", lt);
  NullSink sink;
  dma.attach_output(&ch);
  ch.bind(&sink, dma.output_control());
  FabricMonitor mon("monitor");
  mon.watch(*ch.transmitter(), ch.path());
  const Time L = 17 * kNs + 2 * 3260;
  const Time stop_call = 14 * kNs, go_call = 30 * kNs;
  Actor a("a", {{0, [&] {
                   namespace r = nic::map::nic;
                   dma.reg_write(r::kSendAddr, 0);
                   dma.reg_write(r::kSendLen, 40);
                   dma.reg_write(r::kSendRoute, 1);
                   dma.reg_write(r::kSendCtrl, 1);
                 }},
                {stop_call, [&] { dma.control(true, stop_call + L); }},
                {go_call, [&] { dma.control(false, go_call + L); }}});
  run_for(2 * kUs);
  REQUIRE(sink.arrivals.size() == 41);  // 40 bytes + CRC
  std::vector<Time> dep;
  for (Time t : sink.arrivals) dep.push_back(t - lt.ld);
  CHECK(dep == stop_go_schedule(0, lt.cp, stop_call + L, go_call + L, 41));
  CHECK(dma.stats().packets == 1);
}

namespace {
// A transmitter whose owner has a flit ready at `ready` and never sends it (a lost wake-up).
struct StuckOwner {
  LinkChannel ch{"sw9.p9.out", LinkTiming{}};
  NullSink sink;
  LinkTransmitter tx;
  Time ready;
  explicit StuckOwner(Time r) : ready(r) {
    tx.attach(&ch, [](Time) {});
    ch.bind(&sink, &tx);
    tx.set_work([this] { return LinkTransmitter::Work{ready, 42}; });
  }
};
}  // namespace

TEST_CASE("FabricMonitor: a flit waiting while its link is GO is an error one cp after it was due") {
  StuckOwner o(100 * kNs);
  FabricMonitor mon("monitor");
  mon.watch(o.tx, o.ch.path());
  Actor a("a", {{0, [&] { o.tx.work_at(o.ready); }}});
  const std::string m = run_for_error(1 * kUs);
  INFO(m);
  CHECK(now_ps() == o.ready + LinkTiming{}.cp + 1);  // first instant past the allowance
  CHECK(m.find("work-conservation check failed at 106.251ns: sw9.p9.out") != std::string::npos);
  CHECK(m.find("packet 42") != std::string::npos);
  CHECK(m.find("due at 100ns") != std::string::npos);
}

TEST_CASE("FabricMonitor: a waiting flit is fine while STOP is in force, an error one cp after GO") {
  StuckOwner o(100 * kNs);
  FabricMonitor mon("monitor");
  mon.watch(o.tx, o.ch.path());
  const Time go = 500 * kNs;
  Actor a("a", {{0, [&] { o.tx.control(true, 50 * kNs); o.tx.work_at(o.ready); }}, {400 * kNs, [&] { o.tx.control(false, go); }}});
  const std::string m = run_for_error(1 * kUs);
  INFO(m);
  CHECK(now_ps() == go + LinkTiming{}.cp + 1);
  CHECK(m.find("GO in force since 500ns") != std::string::npos);
}

TEST_CASE("PacketAudit: end-of-run accounting finds every undelivered packet where it is") {
  ParamValues pv;
  Network net(pv, 1);
  build_chain(net, 2);
  net.node(1).pause_receive(0, kNever);  // the sink never consumes: worms stay in the network
  for (int i = 0; i < 3; ++i) net.node(0).inject(1, 20, 0);   // 3 x 25 flits: the sink's buffer STOPs at 53
  for (int i = 0; i < 2; ++i) net.node(0).inject(1, 300, 0);  // the second stays at its source
  run_for(20 * kUs);
  PacketAudit audit(net.packets());
  audit_network(net, now_ps(), audit);
  const auto flying = audit.finish(now_ps());
  REQUIRE(flying.size() == 5);
  for (int i = 0; i < 3; ++i) CHECK(flying[static_cast<std::size_t>(i)].where == "n1.in buffer");
  CHECK(flying[3].where == "n0 source (sending)");
  CHECK(flying[4].where == "n0 source queue");
}
