// A host's interrupt sources (the NIC's and one per device, each waitable on its own, every
// raise delivered host.irq later) and watched host-memory ranges (a polling thread notices a
// DMA write into any of them, woken only by writes into its own).
#include <catch2/catch.hpp>

#include "closed_form.hpp"
#include "hw/base/endian.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/host/host.hpp"
#include "platform/host/host_interface_driver.hpp"
#include "tb/common/test_params.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {

host::Host& make_host() {
  ParamValues pv;
  return *new host::Host("h0", host::HostConfig::from_params(pv, "h0"), PciConfig::from_params(pv, "h0.pci"));
}

void wait_until(Time t) { sc_core::wait(delay_to(t)); }

// The protected driver API a protocol driver uses, opened for the test.
struct OpenDriver : host::HostInterfaceDriver {
  using HostInterfaceDriver::HostInterfaceDriver;
  using HostInterfaceDriver::alloc_dma_area;
  using HostInterfaceDriver::wait_for_word;
};

}  // namespace

TEST_CASE("Each interrupt source is waited on by itself and every raise is delivered host.irq later", "[pci][irq]") {
  host::Host& h = make_host();
  PciDevice& a = h.add_device("a", PciDeviceConfig{});
  PciDevice& b = h.add_device("b", PciDeviceConfig{});
  REQUIRE(h.irq_sources() == 3);
  const std::size_t ia = h.device_irq(0), ib = h.device_irq(1);
  CHECK(ia != host::Host::kNicIrq);
  a.run([](PciDevice& d) {
    wait_until(1 * kUs);
    d.raise_irq(10);
    wait_until(1500 * kNs);  // the first is still in flight
    d.raise_irq(11);
  });
  b.run([](PciDevice& d) {
    wait_until(3 * kUs);
    d.raise_irq(20);
  });
  struct Got { std::uint32_t v; Time t; };
  auto* ga = new std::vector<Got>;
  auto* gb = new std::vector<Got>;
  auto* on_event = new Time(0);
  h.spawn("wa", [&h, ia, ga] {
    for (int i = 0; i < 2; ++i) {
      const std::uint32_t v = h.irq(ia).wait_next();
      ga->push_back({v, now_ps()});
    }
  });
  h.spawn("wb", [&h, ib, gb] { gb->push_back({h.irq(ib).wait_next(), now_ps()}); });
  h.spawn("eb", [&h, ib, on_event] {
    sc_core::wait(h.interrupt_event(ib));  // not woken by a's interrupts
    *on_event = now_ps();
  });
  sc_core::sc_start();
  const Time irq = h.config().irq;
  REQUIRE(ga->size() == 2);
  CHECK((*ga)[0].v == 10);
  CHECK((*ga)[0].t == 1 * kUs + irq);
  CHECK((*ga)[1].v == 11);
  CHECK((*ga)[1].t == 1500 * kNs + irq);
  REQUIRE(gb->size() == 1);
  CHECK((*gb)[0].v == 20);
  CHECK((*gb)[0].t == 3 * kUs + irq);
  CHECK(*on_event == 3 * kUs + irq);
  CHECK(h.interrupts(ia) == 2);
  CHECK(h.interrupts(ib) == 1);
  CHECK(h.interrupts() == 0);  // the NIC's source
}

TEST_CASE("A host watches several ranges: a DMA write into either is noticed on the polling grid", "[pci][watch]") {
  host::Host& h = make_host();
  PciDevice& d = h.add_device("dev0", PciDeviceConfig{});
  auto* drv = new OpenDriver(h);
  const std::uint64_t first = drv->alloc_dma_area(64), second = drv->alloc_dma_area(64);
  REQUIRE(h.memory().watched_ranges() == 2);
  // The device writes the second area, then the first.
  put_be32(d.memory(), 0x11);
  put_be32(d.memory() + 4, 0x22);
  d.run([first, second](PciDevice& dev) {
    dev.dma_write(second, 0, 4);
    dev.dma_write(first, 4, 4);
  });
  auto* seen = new Time[3]{0, 0, 0};
  h.spawn("w2", [drv, second, seen] { drv->wait_for_word(second, 0x11); seen[0] = now_ps(); });
  h.spawn("w1", [drv, first, seen] { drv->wait_for_word(first, 0x22); seen[1] = now_ps(); });
  h.spawn("ev1", [&h, seen] { sc_core::wait(h.memory().watched_write(0)); seen[2] = now_ps(); });
  sc_core::sc_start();
  const Time one = pci_dma_time(h.pci().config(), d.config().setup, 4), poll = h.config().poll;
  auto on_grid = [poll](Time t) { return (t + poll - 1) / poll * poll; };
  CHECK(seen[0] == on_grid(one));
  CHECK(seen[1] == on_grid(2 * one));
  CHECK(seen[2] == 2 * one);  // the first area's event: not woken by the write into the second
}
