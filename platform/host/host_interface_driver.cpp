#include "platform/host/host_interface_driver.hpp"

#include <fmt/format.h>

#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp::host {

namespace {
constexpr std::uint32_t kDoorbell = nic::map::kNicRegBase + nic::map::nic::kDoorbell;
constexpr std::uint32_t kMailbox = nic::map::kNicRegBase + nic::map::nic::kMailbox;

void wait_for(Time t) { sc_core::wait(sc_core::sc_time::from_value(t)); }
}  // namespace

void HostInterfaceDriver::attach(std::uint32_t magic, const char* firmware) {
  const Time poll = 1 * kUs;
  const Time give_up = now_ps() + 100 * kMs;
  while ((hif_ = host_.pio_read(kMailbox)) == 0) {
    if (now_ps() > give_up) throw SimError(fmt::format("{}: the NIC firmware never published its host interface", host_.name()));
    wait_for(poll);
  }
  if (host_.pio_read(hif_) != magic) throw SimError(fmt::format("{}: no {} at 0x{:x} (bad magic)", host_.name(), firmware, hif_));
}

void HostInterfaceDriver::ring_doorbell(std::uint32_t value) { host_.pio_write(kDoorbell, {value}); }

void HostInterfaceDriver::post(PioRing& ring, const std::vector<std::uint32_t>& descriptor) {
  const std::uint32_t slot = ring.base + (ring.produced % ring.entries) * ring.entry_bytes;
  hif_write(slot, descriptor);
  ++ring.produced;
  hif_write(ring.producer, {ring.produced});
  ring_doorbell(ring.produced);
}

std::uint64_t HostInterfaceDriver::alloc_dma_area(std::uint64_t bytes) {
  const std::uint64_t a = host_.alloc(bytes);
  host_.memory().watch(a, a + bytes);
  return a;
}

void HostInterfaceDriver::wait_for_word(std::uint64_t addr, std::uint32_t value) {
  HostMemory& mem = host_.memory();
  if (host_.config().use_irq) {
    // Asleep until the NIC's interrupt (raised once the word is in host memory) reaches us.
    while (mem.read_be32(addr) != value) sc_core::wait(host_.interrupt_event());
    return;
  }
  const Time poll = host_.config().poll;
  const Time began = now_ps();
  const std::size_t area = mem.watched_range_of(addr);
  const sc_core::sc_event& written_ev = area < mem.watched_ranges() ? mem.watched_write(area) : mem.watched_write();
  while (mem.read_be32(addr) != value) sc_core::wait(written_ev);
  // The polling loop notices the write at its first check at or after it.
  const Time written = now_ps();
  const Time seen = began + (written - began + poll - 1) / poll * poll;
  if (seen > written) wait_for(seen - written);
}

void HostInterfaceDriver::call_cost() { wait_for(host_.config().call); }

void HostInterfaceDriver::check_version(std::uint32_t off, std::uint32_t expected, const char* firmware) {
  const std::uint32_t version = host_.pio_read(hif(off));
  if (version != expected)
    throw SimError(fmt::format("{}: {} speaks interface version {}, this host {}", host_.name(), firmware, version, expected));
}

std::uint64_t HostInterfaceDriver::alloc_completion(std::uint32_t words) {
  const std::uint64_t done = alloc_dma_area(4ull * words);
  if (done + 4ull * words > (std::uint64_t{1} << 32))
    throw SimError(fmt::format("{}: host memory for the completion block lies above 4 GiB", host_.name()));
  return done;
}

void HostInterfaceDriver::start_firmware(std::uint32_t go_off) {
  hif_write(go_off, {1});
  ring_doorbell(1);
}

}  // namespace sanvp::host
