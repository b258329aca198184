// Probes on a bare core (hw/nic/probe.hpp): a record carries the global time of the PROBE_VALUE
// store, the tag and the value; global time is refused to firmware when nic.sys.time_access is
// false. Expected times are derived from the cycle model.
#include <catch2/catch.hpp>
#include <vector>

#include "hw/nic/memory_map.hpp"
#include "platform/fw/fw_platform.hpp"
#include "tb/common/test_params.hpp"
#include "tb/iss/iss_harness.hpp"
#include "tb/iss/test_image.hpp"

using namespace sanvp;

namespace {

// tag 7; r7 = TIME_LO (ns); probe value r7; exit 0. At 10 MHz (100 ns a cycle) the ALU
// instructions start at 0 and 100 ns, the tag store at 200 ns, the time load at 300 ns (2
// cycles) and the probe store at 500 ns.
const char* kProbeProgram =
    "add %r0, 0x1000000, %r3\n"
    "add %r0, 7, %r6\n"
    "st %r6, 0x30[%r3]\n"
    "ld 0x10[%r3], %r7\n"
    "st %r7, 0x34[%r3]\n"
    "st %r0, 8[%r3]\n";

}  // namespace

TEST_CASE("a probe records the global time of its store, its tag and its value", "[probe]") {
  ParamValues pv = test::test_params({"nic.core.clock=10", "nic.sram.size=65536"});
  fw::FwPlatform plat("nic", pv, test::image_of(test::assemble(kProbeProgram)), nullptr);
  std::vector<nic::ProbeRecord> got;
  plat.sys->on_probe = [&](std::uint32_t tag, std::uint32_t value, Time when) { got.push_back({when, 0, 0, tag, value}); };
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  REQUIRE(plat.core->result().outcome == nic::LanaiCore::Outcome::kExited);
  REQUIRE(got.size() == 1);
  const Time cycle = 100 * kNs;
  CHECK(got[0].tag == 7);
  CHECK(got[0].value == 3 * cycle / kNs);        // TIME_LO read at the load's start
  CHECK(got[0].time == (3 + 2) * cycle);         // + the load's 2 cycles (nic.core.cycles_load)
}

TEST_CASE("with nic.sys.time_access false, reading global time is a firmware fault", "[probe]") {
  ParamValues pv = test::test_params({"nic.core.clock=10", "nic.sram.size=65536", "nic.sys.time_access=false"});
  fw::FwPlatform plat("nic", pv, test::image_of(test::assemble(kProbeProgram)), nullptr);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  const auto& r = plat.core->result();
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kFault);
  CHECK(r.fault_report.find("0x01000010") != std::string::npos);
  CHECK(r.fault_report.find("not readable by this firmware (nic.sys.time_access = false)") != std::string::npos);
}

