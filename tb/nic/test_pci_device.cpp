// The NIC as a PCI peer of a peripheral device (firmware tb/nic/fw/pci_fw.cpp): the device's
// message round trip through NIC SRAM without the host CPU, at the closed-form PCI time plus the
// firmware's measured time; NIC host-DMA aborts; host DMA time from width and clock; the NIC's
// window refused where host memory overlaps it.
#include <catch2/catch.hpp>

#include "fixture.hpp"
#include "hw/nic/host_dma_params.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/pci/pci_device_map.hpp"
#include "tb/pci/closed_form.hpp"

using namespace sanvp;
using namespace sanvp::test;
namespace r = sanvp::nic::map::nic;
namespace dm = sanvp::pcidev_map;

namespace {

enum PciFwMode : std::uint32_t { kRoundTrip = 1, kAborts = 2 };
constexpr std::uint32_t kEngineHdma = 3;  // engines.cpp's host-DMA mode

struct Span { Time start, end; };

struct RoundTrip {
  Time t0 = 0, bell = 0, t1 = 0;  // device: message DMA starts, NIC doorbell written, echo's doorbell seen
  std::uint32_t ready = 0, echo_bell = 0;
  bool ok = false, done = false;
};

void round_trip_case(std::initializer_list<std::pair<const char*, const char*>> sets) {
  NicFixture f(PCI_FW);
  for (const auto& [k, v] : sets) f.set(k, v);
  auto& net = f.build(1, 1);
  host::Host& h = net.host(0);
  PciDevice& dev = h.add_device("dev0", PciDeviceConfig{});
  const std::uint32_t len = 1001, echo_at = 0x800;
  const std::uint64_t msg_bus = h.nic_bus_address(symbol(f.image, "g_msg"));
  f.poke(0, "g_cfg", {kRoundTrip, static_cast<std::uint32_t>(dev.memory_address(echo_at)),
                      static_cast<std::uint32_t>(dev.reg_address(dm::kDoorbell)), len});
  std::vector<Span> spans;
  net.nic(0).host_dma().set_observer([&](std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t, bool, Time s, Time e) { spans.push_back({s, e}); });
  auto* rt = new RoundTrip;
  dev.run([rt, msg_bus, len, echo_at](PciDevice& d) {
    rt->ready = d.wait_doorbell();  // the firmware is up
    for (std::uint32_t i = 0; i < len; ++i) d.memory()[i] = static_cast<std::uint8_t>(i * 29 + 3);
    rt->t0 = now_ps();
    rt->ok = d.dma_write(msg_bus, 0, len) && d.ring_nic_doorbell(0xD00B);
    rt->bell = now_ps();
    rt->echo_bell = d.wait_doorbell();
    rt->t1 = now_ps();
    rt->done = std::equal(d.memory(), d.memory() + len, d.memory() + echo_at);
  });
  f.run_until_exit({0}, 5 * kMs);
  REQUIRE(rt->ok);
  REQUIRE(rt->done);  // every byte came back
  CHECK(rt->ready == 1);
  CHECK(rt->echo_bell == 2);
  CHECK(f.result(0, 0) == 0xD00B);
  for (int i = 1; i <= 3; ++i) CHECK(f.result(0, i) == r::kHdmaDoneBit);
  CHECK(h.pio_transactions() == 0);  // the host CPU did nothing
  REQUIRE(spans.size() == 3);        // ready bell, echo, echo bell
  const PciParams& p = h.pci().config();
  const Time hdma_setup = nic::HostDmaParams::kSetup.get(f.pv, "n0.hdma");
  // Device: its DMA into NIC SRAM, then one 4-byte write to the doorbell.
  const Time device_part = pci_dma_time(p, dev.config().setup, len) + pci_transaction(p, 4);
  CHECK(rt->bell - rt->t0 == device_part);
  // Firmware (measured): from the doorbell to the HDMA_HEAD write that starts the echo.
  const Time fw = spans[1].start - rt->bell;
  // NIC: two descriptors back to back, the echo and the 4-byte doorbell write.
  const Time nic_part = pci_dma_time(p, hdma_setup, len) + pci_dma_time(p, hdma_setup, 4);
  CHECK(spans[2].end - spans[1].start == nic_part);
  CHECK(rt->t1 == spans[2].end);
  CHECK(rt->t1 - rt->t0 == device_part + fw + nic_part);
  // The firmware's part is what it runs between WAIT's return and the HDMA_HEAD store (ack,
  // two descriptors, the store: 27 cycles of the 66 MHz core with the default build), measured
  // here rather than derived; bounded so that a slower firmware path shows up.
  const Time core_cycle = 15152;  // 66 MHz, to the ps
  CHECK(fw >= 10 * core_cycle);
  CHECK(fw <= 60 * core_cycle);
  WARN("round trip " << format_time(rt->t1 - rt->t0) << " = device " << format_time(device_part) << " + firmware "
                     << format_time(fw) << " + NIC " << format_time(nic_part));
}

void hdma_time_case(const char* width, const char* clock) {
  NicFixture f;
  f.set("pci.width", width);
  f.set("pci.clock", clock);
  auto& net = f.build(1, 1);
  const std::uint32_t len = 1000, src = 0x200000, dst = 0x300000;
  f.poke(0, "g_cfg", {kEngineHdma, src, len, dst});
  std::vector<Span> spans;
  net.nic(0).host_dma().set_observer([&](std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t, bool, Time s, Time e) { spans.push_back({s, e}); });
  f.run_until_exit({0}, 5 * kMs);
  REQUIRE(spans.size() == 3);
  const Time expect = pci_dma_time(net.host(0).pci().config(), nic::HostDmaParams::kSetup.get(f.pv, "n0.hdma"), len);
  CHECK(spans[0].end - spans[0].start == expect);  // host -> SRAM
  CHECK(spans[1].end - spans[1].start == expect);  // SRAM -> host
}

}  // namespace

TEST_CASE("Device round trip through NIC SRAM without the host CPU, 32-bit 33 MHz", "[nic][pci]") { round_trip_case({}); }
TEST_CASE("Device round trip through NIC SRAM without the host CPU, 64-bit 66 MHz", "[nic][pci]") {
  round_trip_case({{"pci.width", "8"}, {"pci.clock", "66"}});
}

TEST_CASE("NIC host DMA time follows width and clock: 32-bit 33 MHz", "[nic][pci]") { hdma_time_case("4", "33"); }
TEST_CASE("NIC host DMA time follows width and clock: 32-bit 66 MHz", "[nic][pci]") { hdma_time_case("4", "66"); }
TEST_CASE("NIC host DMA time follows width and clock: 64-bit 33 MHz", "[nic][pci]") { hdma_time_case("8", "33"); }
TEST_CASE("NIC host DMA time follows width and clock: 64-bit 66 MHz", "[nic][pci]") { hdma_time_case("8", "66"); }

TEST_CASE("NIC host DMA to an unclaimed address or a refused register completes with the error bit", "[nic][pci]") {
  NicFixture f(PCI_FW);
  auto& net = f.build(1, 1);
  host::Host& h = net.host(0);
  const auto host_irq = static_cast<std::uint32_t>(h.nic_bus_address(nic::map::kNicRegBase + r::kHostIrq));
  f.poke(0, "g_cfg", {kAborts, 0xD0000000u, host_irq});
  f.run_until_exit({0}, 5 * kMs);
  for (int i = 0; i < 3; ++i) CHECK(f.result(0, i) == (r::kHdmaDoneBit | r::kHdmaErrBit | (i == 0 ? r::kHdmaToSram : 0)));
  CHECK(f.result(0, 3) == 3);
  CHECK(net.nic(0).host_dma().last_error() ==
        "target abort: 'n0 registers' [0xf2000000, 0xf2010000) refuses a write of 4 bytes at offset 0x34 (bus address 0xf2000034)");
  CHECK(h.pci().map().master_aborts() == 2);
  CHECK(h.interrupts() == 0);  // HOST_IRQ is the firmware's, not the bus's
}

TEST_CASE("Host memory reaching into the NIC's window is refused, naming both", "[nic][pci]") {
  NicFixture f;
  f.set("host.memory", "4294967296");
  CHECK_THROWS_WITH(f.build(1, 1), Catch::Contains("PCI window 'n0 SRAM' [0xf0000000,") &&
                                       Catch::Contains("overlaps 'n0.host memory' [0x0, 0x100000000)"));
}
