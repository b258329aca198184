// Probes of NICs in a network (hw/nic/probe.hpp): node and RTC exact against global time on
// drifting oscillators, from protocol firmware (PROTOCOL build, nic.sys.time_access=false); the
// timeline orders the records of several NICs by time.
#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>

#include "platform/sim/probe_timeline.hpp"
#include "tb/nic/fixture.hpp"

using namespace sanvp;

TEST_CASE("NIC probes carry node and RTC, exact against global time, on drifting clocks", "[probe]") {
  test::NicFixture f(PROBE_FW);
  f.set("n0.osc.ppm", "250");  // the NIC module of node N is named nN
  f.set("n1.osc.ppm", "-125");
  f.set("nic.sys.time_access", "false");
  auto& net = f.build(2, 1);
  f.pv.check_all_used();  // the per-NIC keys above reached their oscillators
  REQUIRE(net.nic(0).oscillator().error_ppb(0) == 250000);
  REQUIRE(net.nic(1).oscillator().error_ppb(0) == -125000);
  ProbeTimeline timeline;
  for (int n = 0; n < 2; ++n) net.nic(n).set_probe_sink(timeline.sink());
  f.run_until_exit({0, 1}, 10 * kMs);
  const auto recs = timeline.sorted();
  REQUIRE(recs.size() == 8);  // g_cfg[0] = 4 probes per NIC
  std::vector<int> seen(2, 0);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const auto& r = recs[i];
    REQUIRE(r.node < 2);
    auto& osc = net.nic(static_cast<int>(r.node)).oscillator();
    CHECK(r.rtc == osc.ticks(r.time));  // the RTC was never written: ticks since 0
    CHECK(r.tag == static_cast<std::uint32_t>(++seen[r.node]));
    CHECK(r.value <= r.rtc);             // read before the probe store
    CHECK(r.rtc - r.value < 50);         // a few instructions at 66 MHz vs a 100 MHz RTC
    if (i > 0) CHECK(recs[i - 1].time <= r.time);
  }
  const std::string csv = timeline.csv();
  CHECK(csv.rfind("time_ps,node,rtc,tag,value\n", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 9);
}
