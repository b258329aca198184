// The host's PCI bus with peripheral devices: DMA time from width, clock, latency and burst
// (closed form, tb/pci/closed_form.hpp), bus sharing between masters, the address map (master
// and target aborts, overlapping windows), PIO to a device, interrupt sources and watched ranges.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "closed_form.hpp"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/pci/pci_device_map.hpp"
#include "platform/host/host.hpp"
#include "tb/common/test_params.hpp"

using namespace sanvp;
using namespace sanvp::test;
namespace dm = sanvp::pcidev_map;

namespace {

// A host (no NIC) with its bus configured by `sets`; lives until the process ends.
host::Host& make_host(std::initializer_list<const char*> sets) {
  ParamValues pv = test_params(sets);
  return *new host::Host("h0", host::HostConfig::from_params(pv, "h0"), PciConfig::from_params(pv, "h0.pci"));
}

struct Span { Time start = 0, end = 0; bool ok = false; };

// Device d DMAs len bytes from its memory to host memory at `to`, starting at time 0.
Span* dma_at_start(PciDevice& d, std::uint64_t to, std::uint32_t len) {
  auto* s = new Span;
  for (std::uint32_t i = 0; i < len; ++i) d.memory()[i] = static_cast<std::uint8_t>(i * 7 + 1);
  d.run([s, to, len](PciDevice& dev) {
    s->start = now_ps();
    s->ok = dev.dma_write(to, 0, len);
    s->end = now_ps();
  });
  return s;
}

void dma_time_case(const char* width, const char* clock) {
  host::Host& h = make_host({width, clock});
  PciDevice& d = h.add_device("dev0", PciDeviceConfig{});
  const std::uint32_t len = 1001;  // four bursts, the last 233 bytes: not a multiple of any width
  Span* s = dma_at_start(d, 0x200000, len);
  sc_core::sc_start();
  REQUIRE(s->ok);
  const PciParams& p = h.pci().config();
  CHECK(s->end - s->start == pci_dma_time(p, d.config().setup, len));
  std::vector<std::uint8_t> got(len);
  h.memory().read(0x200000, got.data(), len);
  for (std::uint32_t i = 0; i < len; ++i) REQUIRE(got[i] == static_cast<std::uint8_t>(i * 7 + 1));
}

}  // namespace

TEST_CASE("PCI DMA time follows width and clock: 32-bit 33 MHz", "[pci][timing]") { dma_time_case("pci.width=4", "pci.clock=33"); }
TEST_CASE("PCI DMA time follows width and clock: 32-bit 66 MHz", "[pci][timing]") { dma_time_case("pci.width=4", "pci.clock=66"); }
TEST_CASE("PCI DMA time follows width and clock: 64-bit 33 MHz", "[pci][timing]") { dma_time_case("pci.width=8", "pci.clock=33"); }
TEST_CASE("PCI DMA time follows width and clock: 64-bit 66 MHz", "[pci][timing]") { dma_time_case("pci.width=8", "pci.clock=66"); }

TEST_CASE("The closed form gives the textbook rates: 117.3, 234.7, 211.2 and 422.4 MB/s with 256-byte bursts", "[pci][timing]") {
  // 256 bytes per (8 + 256/width) cycles.
  const struct { int width; double clock, mbs; } cfg[] = {{4, 33, 117.3}, {4, 66, 234.7}, {8, 33, 211.2}, {8, 66, 422.4}};
  for (const auto& c : cfg) {
    PciParams p;
    p.width = c.width;
    p.clock_mhz = c.clock;
    const double mbs = 256.0 / (static_cast<double>(pci_transaction(p, 256)) * 1e-12) / 1e6;
    CHECK(mbs == Approx(c.mbs).margin(0.05));
  }
}

TEST_CASE("Two masters DMAing at once share the bus burst by burst: together they take the sum", "[pci][timing]") {
  host::Host& h = make_host({});
  PciDevice& a = h.add_device("a", PciDeviceConfig{});
  PciDevice& b = h.add_device("b", PciDeviceConfig{});
  const std::uint32_t len = 1024;  // four bursts each
  Span* sa = dma_at_start(a, 0x200000, len);
  Span* sb = dma_at_start(b, 0x300000, len);
  sc_core::sc_start();
  REQUIRE(sa->ok);
  REQUIRE(sb->ok);
  const PciParams& p = h.pci().config();
  const Time setup = a.config().setup, burst = pci_transaction(p, 256);
  // Both set up in parallel; then the eight bursts alternate: one master ends a burst before
  // the other, the last at the sum of all eight.
  CHECK(std::max(sa->end, sb->end) == setup + 8 * burst);
  CHECK(std::min(sa->end, sb->end) == setup + 7 * burst);
  CHECK(h.pci().busy_time() == 8 * burst);
  CHECK(h.pci().transactions() == 8);
}

TEST_CASE("Devices are placed in aligned slots from pci.device_base and their windows decode", "[pci][map]") {
  host::Host& h = make_host({"pcidev.memory=65536"});
  PciDevice& a = h.add_device("a", PciDeviceConfig{});
  PciDevice& b = h.add_device("b", PciDeviceConfig{});
  const std::uint64_t slot = 0x20000;  // 4 KiB of registers + 64 KiB of memory, to a power of two
  CHECK(a.config().window_bytes() == slot);
  CHECK(a.base() == h.pci().config().device_base);
  CHECK(b.base() == a.base() + slot);
  CHECK(b.memory_address(16) == b.base() + dm::kMemOffset + 16);
  const PciWindow* w = h.pci().map().decode(b.memory_address(), 64);
  REQUIRE(w);
  CHECK(w->name == "h0_b memory");
  CHECK(h.pci().map().decode(b.memory_address(65536 - 8), 16) == nullptr);  // runs past the end
}

TEST_CASE("Overlapping windows are refused at construction, naming both", "[pci][map]") {
  host::Host& h = make_host({});
  PciDeviceConfig c;
  c.base = 0xE0000000;
  h.add_device("a", c);
  c.base = 0xE0010000;  // inside a's memory window
  try {
    h.add_device("b", c);
    FAIL("no error");
  } catch (const UserError& e) {
    const std::string m = e.what();
    CHECK(m.find("'h0_b registers' [0xe0010000, 0xe0011000)") != std::string::npos);
    CHECK(m.find("overlaps 'h0_a memory' [0xe0001000, 0xe0011000)") != std::string::npos);
  }
  c.base = 0x1000;  // inside host memory
  CHECK_THROWS_WITH(h.add_device("c", c), Catch::Contains("overlaps 'h0 memory' [0x0, 0x10000000)"));
}

TEST_CASE("A device DMA to an address nobody claims is a master abort: an error status, no data, latency cycles", "[pci][abort]") {
  host::Host& h = make_host({});
  PciDevice& d = h.add_device("dev0", PciDeviceConfig{});
  struct R { bool unclaimed = true, past_end = true, bad_reg = true; Time t_abort = 0; std::string why1, why2, why3; std::uint32_t status = 0; };
  auto* r = new R;
  d.run([r, &h](PciDevice& dev) {
    const Time t0 = now_ps();
    r->unclaimed = dev.dma_write(0xD0000000, 0, 64);
    r->t_abort = now_ps() - t0;
    r->why1 = dev.last_error();
    r->past_end = dev.dma_read(h.memory().size() - 32, 0, 64);  // starts in host memory, runs past its end
    r->why2 = dev.last_error();
    r->bad_reg = dev.write32(dev.reg_address(0x100), 1);  // no register there: target abort
    r->why3 = dev.last_error();
    r->status = dev.status();
  });
  sc_core::sc_start();
  CHECK_FALSE(r->unclaimed);
  CHECK_FALSE(r->past_end);
  CHECK_FALSE(r->bad_reg);
  CHECK(r->t_abort == d.config().setup + h.pci().config().latency * pci_cycle(h.pci().config()));
  CHECK(r->why1 == "master abort: no PCI window claims bus address 0xd0000000 (write of 64 bytes)");
  CHECK(r->why2 == "master abort: a read of 64 bytes at bus address 0xfffffe0 runs past the end of 'h0 memory' [0x0, 0x10000000)");
  CHECK(r->why3 == "target abort: 'h0_dev0 registers' [0xe0000000, 0xe0001000) refuses a write of 4 bytes at offset 0x100 (bus address 0xe0000100)");
  CHECK(r->status == (dm::kStatusError | (3u << 16)));
  CHECK(h.pci().map().master_aborts() == 2);
  CHECK(h.pci().map().target_aborts() == 1);
}

TEST_CASE("Host PIO reaches a device's registers and doorbell, and PIO nobody claims is a SimError", "[pci][pio]") {
  host::Host& h = make_host({});
  PciDevice& d = h.add_device("dev0", PciDeviceConfig{});
  struct R { std::uint32_t scratch = 0, bell = 0; Time pio_end = 0, rung = 0; std::string err; };
  auto* r = new R;
  h.spawn("app", [r, &h, &d] {
    h.pio_write_bus(d.reg_address(dm::kScratch), {0xCAFEF00D});
    r->scratch = h.pio_read_bus(d.reg_address(dm::kScratch));
    h.pio_write_bus(d.reg_address(dm::kDoorbell), {77});
    r->pio_end = now_ps();
    try {
      h.pio_read_bus(0xD0000000);
    } catch (const SimError& e) { r->err = e.what(); }
  });
  d.run([r](PciDevice& dev) {
    r->bell = dev.wait_doorbell();
    r->rung = now_ps();
  });
  sc_core::sc_start();
  CHECK(r->scratch == 0xCAFEF00D);
  CHECK(r->bell == 77);
  CHECK(r->rung == r->pio_end);
  CHECK(r->pio_end == 3 * pci_transaction(h.pci().config(), 4));
  CHECK(r->err == "h0: host PIO master abort: no PCI window claims bus address 0xd0000000 (read of 4 bytes)");
}
