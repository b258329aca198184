// NIC engine tests. Expected times are derived from the parameters in each test.
#include <catch2/catch.hpp>

#include "fixture.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/oscillator.hpp"
#include <cmath>

using namespace sanvp;
using namespace sanvp::test;  // NicFixture and the closed-form oscillator (ticks, tick_time)
namespace r = sanvp::nic::map::nic;

namespace {

enum Mode : std::uint32_t { kIdle = 0, kTimer = 1, kRtcSet = 2, kHdma = 3, kSender = 4, kReceiver = 5, kIrqMask = 6, kFault = 7 };


}  // namespace

// One simulation per process: each parameter set is its own test case.
static void timer_case(std::int64_t ppm) {
  NicFixture f;
  f.set("nic.osc.ppm", std::to_string(ppm));
  auto& net = f.build(1, 1);
  f.poke(0, "g_cfg", {kTimer, 12345});
  Time armed = 0, expires = 0;
  net.nic(0).regs().on_timer_armed = [&](int, Time a, Time e, std::uint32_t) { armed = a; expires = e; };
  f.run_until_exit({0}, 5 * kMs);
  const std::uint64_t hz = 100000000;  // nic.osc.freq default
  REQUIRE(expires == tick_time(ticks(armed, hz, ppm) + 12345, hz, ppm));
  CHECK(f.result(0, 3) == r::kIrqTimer0);  // WAIT returned the timer bit
  CHECK(f.result(0, 4) == 0);              // acknowledged
  CHECK(f.result(0, 5) == 0);              // expired: nothing left
  CHECK(f.result(0, 6) == 100000);         // nominal kHz
  CHECK(f.result(0, 2) <= 12345);
  CHECK(f.result(0, 2) >= 12345 - 5);  // read a few instructions after arming
  // The core slept until the expiry: RTC after wake minus RTC before arming covers N ticks.
  CHECK(f.result(0, 1) - f.result(0, 0) >= 12345);
  // ...plus the few instructions between reading the RTC, arming, waking and reading it again.
  CHECK(f.result(0, 1) - f.result(0, 0) <= 12345 + 20);
  CHECK(net.nic(0).regs().stats().sleeps == 1);
}
TEST_CASE("Timer expires at the oscillator tick the parameters give (0 ppm)", "[nic][timer]") { timer_case(0); }
TEST_CASE("Timer expires at the oscillator tick the parameters give (+200 ppm)", "[nic][timer]") { timer_case(200); }
TEST_CASE("Timer expires at the oscillator tick the parameters give (-350 ppm)", "[nic][timer]") { timer_case(-350); }

TEST_CASE("RTCs of +200 ppm and -200 ppm NICs diverge at exactly the rate the parameters imply", "[nic][rtc]") {
  NicFixture f;
  f.set("n0.osc.ppm", "200");
  f.set("n1.osc.ppm", "-200");
  auto& net = f.build(2, 1);
  sc_core::sc_start(sc_core::sc_time::from_value(10 * kMs));
  const Time now = sc_core::sc_time_stamp().value();
  const std::uint64_t hz = 100000000;
  const std::uint64_t a = net.nic(0).regs().rtc(now), b = net.nic(1).regs().rtc(now);
  CHECK(a == ticks(now, hz, 200));
  CHECK(b == ticks(now, hz, -200));
  // 400 ppm of 10 ms at 100 MHz = 400 ticks (within the floor of each count).
  CHECK(a - b >= 399);
  CHECK(a - b <= 401);
  // At every instant, not only at the end.
  for (Time t : {Time{1}, 3 * kUs + 17, 777 * kUs, 9999 * kUs + 9})
    CHECK(net.nic(0).oscillator().ticks(t) == ticks(t, hz, 200));
}

TEST_CASE("RTC can be set - carries into the high word and keeps counting", "[nic][rtc]") {
  NicFixture f;
  auto& net = f.build(1, 1);
  f.poke(0, "g_cfg", {kRtcSet, 0x1, 0xFFFFFFF0u, 100});
  f.run_until_exit({0}, 5 * kMs);
  const std::uint64_t v = (std::uint64_t{f.result(0, 0)} << 32) | f.result(0, 1);
  CHECK(v >= 0x1FFFFFFF0ull + 100);
  CHECK(v <= 0x1FFFFFFF0ull + 120);  // + the instructions between setting, arming and reading
  (void)net;
}

TEST_CASE("Masked events do not wake the core - software events do", "[nic][irq]") {
  NicFixture f;
  auto& net = f.build(1, 1);
  f.poke(0, "g_cfg", {kIrqMask, 100, 5000});
  f.run_until_exit({0}, 5 * kMs);
  CHECK(f.result(0, 0) == r::kIrqTimer1);                    // woke for timer 1 only
  CHECK((f.result(0, 1) & r::kIrqTimer0) == r::kIrqTimer0);  // timer 0 pending while masked
  CHECK(f.result(0, 2) == (1u << 24));
  CHECK(net.nic(0).regs().stats().sleeps == 1);  // the second WAIT did not sleep
}

TEST_CASE("Host DMA moves data both ways with PCI timing and flags bad descriptors", "[nic][hdma]") {
  NicFixture f;
  auto& net = f.build(1, 1);
  const std::uint32_t len = 1000, src = 0x200000, dst = 0x300000;
  std::vector<std::uint8_t> data(len);
  std::uint32_t sum = 0;
  for (std::uint32_t i = 0; i < len; ++i) {
    data[i] = static_cast<std::uint8_t>(i * 13 + 5);
    sum = sum * 33u + data[i];
  }
  net.host(0).memory().write(src, data.data(), len);
  f.poke(0, "g_cfg", {kHdma, src, len, dst});
  std::vector<std::pair<Time, Time>> spans;
  net.nic(0).host_dma().set_observer([&](std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t, bool, Time s, Time e) { spans.emplace_back(s, e); });
  f.run_until_exit({0}, 5 * kMs);
  CHECK(f.result(0, 0) == (r::kHdmaToSram | r::kHdmaDoneBit));
  CHECK(f.result(0, 1) == 1);
  CHECK(f.result(0, 2) == sum);
  CHECK(f.result(0, 3) == r::kHdmaDoneBit);
  CHECK(f.result(0, 4) == 2);
  CHECK((f.result(0, 5) & (r::kHdmaDoneBit | r::kHdmaErrBit)) == (r::kHdmaDoneBit | r::kHdmaErrBit));
  std::vector<std::uint8_t> back(len);
  net.host(0).memory().read(dst, back.data(), len);
  CHECK(back == data);
  // setup + bursts of at most 256 bytes, each (latency + ceil(bytes/width)) PCI cycles.
  const Time cycle = 30303;  // 33 MHz, rounded to the ps
  const Time expect = 60 * kNs + ((8 + 64) * 3 + (8 + (1000 - 768) / 4)) * cycle;
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].second - spans[0].first == expect);
  CHECK(spans[1].second - spans[1].first == expect);
}

namespace {

struct LinkRun {
  std::vector<std::pair<Time, Time>> sent, received;
};

// n0 sends `count` packets of `payload` bytes to the last node; returns both engines' times.
LinkRun link_run(NicFixture& f, int switches, std::uint32_t count, std::uint32_t payload, std::vector<std::uint32_t> rx_cfg,
                 std::function<void(host::NicNetwork&)> before = {}) {
  auto& net = f.build(2, switches);
  f.poke(0, "g_cfg", {kSender, 1, count, payload, 200000});  // start at 2 ms: the receiver is ready
  f.poke(1, "g_cfg", rx_cfg);
  LinkRun lr;
  net.nic(0).send_dma().set_observer([&](std::uint32_t, std::uint32_t, Time a, Time b, std::uint32_t) { lr.sent.emplace_back(a, b); });
  net.nic(1).recv_dma().set_observer([&](std::uint32_t, Time a, Time b, std::uint32_t, std::uint32_t) { lr.received.emplace_back(a, b); });
  if (before) before(net);
  f.run_until_exit({0, 1}, 20 * kMs);
  return lr;
}

}  // namespace

static void link_case(int p) {
  NicFixture f;
  // expect 5, 8 buffers of 256 B, back-pressure, no delay, payload 100, give up after 1 ms
  const LinkRun lr = link_run(f, p, 5, 100, {kReceiver, 5, 8, 256, 0, 0, 100, 1000000});
  CHECK(f.result(1, 0) == 5);  // good
  CHECK(f.result(1, 1) == 0);
  CHECK(f.result(1, 3) == 0);
  CHECK(f.result(1, 5) == 1);  // guards intact
  CHECK(f.result(1, 7) == 104);  // type + seq + payload stored, CRC not
  CHECK(f.result(0, 0) == 5);
  REQUIRE(lr.sent.size() == 5);
  REQUIRE(lr.received.size() == 5);
  const Time ld = 17 * kNs, cp = 6250, rd = 100 * kNs, sd = 2 * kNs;
  const Time wire = static_cast<Time>(p) + 4 + 100 + 1;  // route bytes, type+seq, payload, CRC
  for (std::size_t i = 0; i < 5; ++i) {
    // First byte at the destination NIC: t0 + ld + p(rd + sd + ld); the rest streams at cp.
    CHECK(lr.received[i].first == lr.sent[i].first + ld + static_cast<Time>(p) * (rd + sd + ld));
    CHECK(lr.received[i].second == lr.received[i].first + (wire - static_cast<Time>(p) - 1) * cp);
    CHECK(lr.sent[i].second == lr.sent[i].first + (wire - 1) * cp);
  }
}
TEST_CASE("Send and receive DMA: packets through 1 switch arrive intact at the closed-form times", "[nic][link]") { link_case(1); }
TEST_CASE("Send and receive DMA: packets through 3 switches arrive intact at the closed-form times", "[nic][link]") { link_case(3); }

TEST_CASE("Receive-buffer exhaustion with back-pressure stalls the sender without loss", "[nic][rx]") {
  NicFixture f;
  // no buffers for 2.02 ms (the sender starts at 2 ms), then 2 buffers of 2048 B for 6 packets of 1000 B
  const LinkRun lr = link_run(f, 1, 6, 1000, {kReceiver, 6, 2, 2048, 0, 202000, 1000, 1000000});
  CHECK(f.result(1, 0) == 6);  // all delivered intact
  CHECK(f.result(1, 4) == 0);  // nothing dropped
  CHECK(f.result(1, 5) == 1);
  CHECK(f.result(0, 1) >= 1);  // the sender saw STOP
  CHECK(f.result(0, 2) >= 1);  // and GO
  CHECK(f.result(0, 3) >= 1);  // with its packet blocked
  CHECK(f.net->nic(0).send_dma().stats().blocked > 0);
  // The first packet could not start arriving into a buffer before the buffers were handed out.
  REQUIRE(!lr.received.empty());
  CHECK(lr.received[0].second > 2020 * kUs);
}

TEST_CASE("Receive-buffer exhaustion with the drop policy drops and counts - never writing outside buffers", "[nic][rx]") {
  NicFixture f;
  // enabled with no buffer until 2.1 ms: all 6 packets of 100 B (sent from 2 ms) are dropped
  link_run(f, 1, 6, 100, {kReceiver, 6, 2, 64, 1, 210000, 100, 1000000});
  CHECK(f.result(1, 4) == 6);  // drops
  CHECK(f.result(1, 6) == 0);  // none stored
  CHECK(f.result(1, 5) == 1);  // guards intact
  CHECK(f.result(0, 1) == 0);  // the sender was never stopped
}

TEST_CASE("Packets longer than the buffer are truncated and flagged - guards intact", "[nic][rx]") {
  NicFixture f;
  link_run(f, 1, 3, 100, {kReceiver, 3, 2, 64, 0, 0, 100, 1000000});
  CHECK(f.result(1, 2) == 3);  // truncated
  CHECK(f.result(1, 7) == 64);
  CHECK(f.result(1, 5) == 1);
  CHECK((f.result(1, 16) & r::kRxTrunc) != 0);
}

TEST_CASE("A byte corrupted on the wire is flagged by the CRC status and not delivered as good", "[nic][crc]") {
  NicFixture f;
  link_run(f, 1, 4, 100, {kReceiver, 4, 8, 256, 0, 0, 100, 1000000},
           [](host::NicNetwork& net) { net.nic(0).send_dma().corrupt_next(1 + 10, 0x40); });
  CHECK(f.result(1, 1) == 1);  // one CRC error
  CHECK(f.result(1, 0) == 3);  // the other three good
  CHECK(f.result(1, 3) == 0);  // no bad packet passed as good
  CHECK(f.result(1, 8) == 1);  // the engine's CRC error counter
  CHECK((f.result(1, 16) & r::kRxCrcErr) != 0);
}

TEST_CASE("Idle cost: 64 NICs with sleeping firmware run 10 ms with no instructions after boot", "[nic][idle]") {
  NicFixture f;
  auto& net = f.build(64, 8, 16);
  sc_core::sc_start(sc_core::sc_time::from_value(2 * kMs));
  std::vector<std::uint64_t> boot;
  std::uint64_t total = 0;
  for (int i = 0; i < 64; ++i) {
    boot.push_back(net.nic(i).core().state().instret);
    REQUIRE(net.nic(i).regs().sleeping());
    total += boot.back();
  }
  sc_core::sc_start(sc_core::sc_time::from_value(8 * kMs));
  std::uint64_t after = 0;
  for (int i = 0; i < 64; ++i) {
    CHECK(net.nic(i).core().state().instret == boot[static_cast<std::size_t>(i)]);
    after += net.nic(i).core().state().instret;
  }
  // Boot clears .bss (about 20 KiB) word by word: bounded by 30 000 instructions per NIC.
  CHECK(total == after);
  CHECK(total <= 64u * 30000u);
}

TEST_CASE("Oscillator random walk is reproducible and its tick/time conversions are exact inverses", "[nic][osc]") {
  nic::OscillatorConfig c;
  c.freq_mhz = 100;
  c.ppm = 50;
  c.walk_ppm = 20;
  c.walk_step = 10 * kUs;
  nic::Oscillator a(c, Rng(7, "n0.osc")), b(c, Rng(7, "n0.osc")), other(c, Rng(8, "n0.osc"));
  bool differs = false;
  std::uint64_t prev = 0;
  for (Time t = 0; t <= 5 * kMs; t += 3 * kUs + 7) {
    const std::uint64_t n = a.ticks(t);
    CHECK(n == b.ticks(t));  // same seed and name: same clock
    differs = differs || n != other.ticks(t);
    CHECK(n >= prev);        // monotonic
    prev = n;
  }
  CHECK(differs);  // another seed: another walk
  for (std::uint64_t n : {1ull, 999ull, 123456ull, 499999ull}) {
    const Time t = a.time_of_tick(n);
    CHECK(a.ticks(t) >= n);
    CHECK(a.ticks(t - 1) < n);
  }
  // The walk stays near the static error: |error| within 50 ppm +/- 6 sigma sqrt(steps).
  const double err = static_cast<double>(a.error_ppb(5 * kMs)) / 1000.0;
  CHECK(std::abs(err - 50.0) < 6 * 20.0 * std::sqrt(500.0));
}

TEST_CASE("A NIC firmware fault stops that NIC with a report and leaves the network running", "[nic][fault]") {
  NicFixture f;
  auto& net = f.build(2, 1);
  f.poke(0, "g_cfg", {kFault});
  f.poke(1, "g_cfg", {kTimer, 1000});
  sc_core::sc_start(sc_core::sc_time::from_value(5 * kMs));
  const auto& r = net.nic(0).core().result();
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kFault);
  CHECK(r.fault_report.find("0x02008000") != std::string::npos);       // the address
  CHECK(r.fault_report.find("bad_register_read") != std::string::npos);  // pc as symbol+offset
  CHECK(r.fault_report.find("registers:") != std::string::npos);
  CHECK(r.fault_report.find("last 16 pcs") != std::string::npos);
  CHECK(net.nic(1).core().result().outcome == nic::LanaiCore::Outcome::kExited);  // the other NIC went on
}
