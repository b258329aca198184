#include "platform/grim/grim_device_endpoint.hpp"

#include <fmt/format.h>

#include "firmware/grim/grim_proto.h"
#include "hw/base/endian.hpp"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/pci/pci_device_map.hpp"
#include "hw/pci/pci_dma.hpp"

namespace sanvp::grim_host {

GrimDeviceEndpoint::GrimDeviceEndpoint(PciDevice& dev, PciBus& bus, const GrimDeviceConfig& cfg) : dev_(dev), bus_(bus), cfg_(cfg) {
  if (cfg.endpoint < 1 || cfg.endpoint >= grim::kMaxEndpoints)
    throw UserError(fmt::format("grim device endpoint {} is outside 1..{}", cfg.endpoint, grim::kMaxEndpoints - 1));
  if (cfg.channels == 0 || cfg.channels >= (1u << grim::kChannels))
    throw UserError(fmt::format("grim device endpoint {}: channel mask {:#x} names no channel or one beyond {}", cfg.endpoint, cfg.channels,
                                grim::kChannels - 1));
  if (cfg.cq_entries < grim::kSqEntries + grim::kRqEntries || cfg.cq_entries > (1u << 20))
    throw UserError(fmt::format("grim device endpoint {}: a completion queue of {} entries is outside {}..{}", cfg.endpoint, cfg.cq_entries,
                                grim::kSqEntries + grim::kRqEntries, 1u << 20));
  cq_ = alloc(std::uint64_t{cfg.cq_entries} * grim::kCqEntryBytes);
}

std::uint64_t GrimDeviceEndpoint::sram(std::uint32_t hif_off) const { return bus_.config().nic_base + hif_ + hif_off; }

void GrimDeviceEndpoint::write_words(std::uint64_t bus_addr, std::initializer_list<std::uint32_t> words) {
  std::uint8_t b[64];
  std::uint32_t n = 0;
  for (const std::uint32_t w : words) put_be32(b + 4 * n++, w);
  ++pci_writes_;
  const PciDmaResult r = pci_dma(bus_, bus_addr, b, 4 * n, true);
  if (!r.ok()) throw SimError(fmt::format("{}: GRIM endpoint write {}", dev_.name(), bus_.map().describe(r.status, r.addr, r.len, true)));
}

std::uint32_t GrimDeviceEndpoint::read32(std::uint64_t bus_addr) {
  std::uint8_t b[4] = {0, 0, 0, 0};
  const PciDmaResult r = pci_dma(bus_, bus_addr, b, 4, false);
  if (!r.ok()) throw SimError(fmt::format("{}: GRIM endpoint read {}", dev_.name(), bus_.map().describe(r.status, r.addr, r.len, false)));
  return get_be32(b);
}

std::uint8_t* GrimDeviceEndpoint::local(std::uint64_t addr, std::uint32_t n) {
  const std::uint64_t base = dev_.memory_address(0);
  if (addr < base || addr - base > dev_.memory_bytes() || n > dev_.memory_bytes() - (addr - base))
    throw SimError(fmt::format("{}: {} bytes at bus address {:#x} are not in the device's memory", dev_.name(), n, addr));
  return dev_.memory() + (addr - base);
}

std::uint64_t GrimDeviceEndpoint::alloc(std::uint64_t bytes) {
  const std::uint64_t a = (brk_ + 63) & ~std::uint64_t{63};
  if (a + bytes > dev_.memory_bytes())
    throw UserError(fmt::format("{}: device memory exhausted ({} bytes requested, pcidev.memory = {})", dev_.name(), bytes, dev_.memory_bytes()));
  brk_ = a + bytes;
  return dev_.memory_address(a);
}

void GrimDeviceEndpoint::write_memory(std::uint64_t addr, const std::uint8_t* src, std::uint32_t n) { std::copy(src, src + n, local(addr, n)); }
void GrimDeviceEndpoint::read_memory(std::uint64_t addr, std::uint8_t* dst, std::uint32_t n) {
  const std::uint8_t* p = local(addr, n);
  std::copy(p, p + n, dst);
}

void GrimDeviceEndpoint::open() {
  const Time poll = 1 * kUs, give_up = now_ps() + 100 * kMs;
  const std::uint64_t mailbox = bus_.config().nic_base + nic::map::kNicRegBase + nic::map::nic::kMailbox;
  while ((hif_ = read32(mailbox)) == 0) {
    if (now_ps() > give_up) throw SimError(fmt::format("{}: the NIC firmware never published its host interface", dev_.name()));
    sc_core::wait(sc_core::sc_time::from_value(poll));
  }
  if (read32(sram(0)) != grim::kHifMagic) throw SimError(fmt::format("{}: no GRIM firmware at 0x{:x} (bad magic)", dev_.name(), hif_));
  if (const std::uint32_t v = read32(sram(grim::kHifVersion)); v != grim::kVersion)
    throw SimError(fmt::format("{}: GRIM firmware speaks interface version {}, this device {}", dev_.name(), v, grim::kVersion));
  block_ = grim::ep_block(cfg_.endpoint);
  // Everything but `open` in one burst, then open, then the doorbell.
  write_words(sram(block_ + grim::kEpCq), {static_cast<std::uint32_t>(cq_), cfg_.cq_entries,
                                           static_cast<std::uint32_t>(dev_.reg_address(pcidev_map::kDoorbell)), cfg_.channels});
  write_words(sram(block_ + grim::kEpOpenWord), {1});
  ++pci_writes_;
  if (!dev_.ring_nic_doorbell(0)) throw SimError(fmt::format("{}: {}", dev_.name(), dev_.last_error()));
  std::uint32_t state;
  while ((state = read32(sram(block_ + grim::kEpState))) != grim::kEpOpen) {
    if (state == grim::kEpRefused)
      throw SimError(fmt::format("{}: the GRIM firmware refused endpoint {} (channels {:#x} taken by another endpoint, or the host allows "
                                 "fewer endpoints)", dev_.name(), cfg_.endpoint, cfg_.channels));
    if (now_ps() > give_up) throw SimError(fmt::format("{}: the GRIM firmware never opened endpoint {}", dev_.name(), cfg_.endpoint));
    sc_core::wait(sc_core::sc_time::from_value(poll));
  }
}

void GrimDeviceEndpoint::post_recv(std::uint64_t addr, std::uint32_t capacity) {
  while (rq_produced_ - recvs_done_ >= grim::kRqEntries) pending_.push_back(next_from_queue());
  const std::uint32_t slot = block_ + grim::kEpRq + (rq_produced_ % grim::kRqEntries) * grim::kRqEntryBytes;
  write_words(sram(slot), {static_cast<std::uint32_t>(addr), capacity});
  write_words(sram(block_ + grim::kEpRqProd), {++rq_produced_});
  ++pci_writes_;
  dev_.ring_nic_doorbell(rq_produced_);
}

void GrimDeviceEndpoint::send_to(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, std::uint64_t addr,
                                 std::uint32_t length, std::uint32_t tag, std::uint32_t handler) {
  while (sq_produced_ - sends_done_ >= grim::kSqEntries) pending_.push_back(next_from_queue());
  const std::uint32_t slot = block_ + grim::kEpSq + (sq_produced_ % grim::kSqEntries) * grim::kSqEntryBytes;
  // Out-of-range fields are passed on as such: the firmware refuses them with an error completion.
  const std::uint32_t to = (handler & 0xFF) << 24 | (dst_endpoint & 0xFF) << 16 | (dst & 0xFF) << 8 | (channel & 0xFF);
  write_words(sram(slot), {static_cast<std::uint32_t>(addr), length, to, tag});
  write_words(sram(block_ + grim::kEpSqProd), {++sq_produced_});
  ++pci_writes_;
  dev_.ring_nic_doorbell(sq_produced_);
}

GrimCompletion GrimDeviceEndpoint::next_from_queue() {
  const std::uint8_t* e = local(cq_ + ((cq_next_ - 1) % cfg_.cq_entries) * grim::kCqEntryBytes, grim::kCqEntryBytes);
  // The NIC writes the entry, then the doorbell: a doorbell means the entries before it are in.
  while (get_be32(e) != cq_next_) dev_.wait_doorbell();
  while (dev_.doorbells_pending()) dev_.wait_doorbell();  // consumed: entries are read from memory, not counted by bells
  GrimCompletion c;
  const std::uint32_t w1 = get_be32(e + 4);
  c.kind = w1 >> 24;
  c.channel = (w1 >> 16) & 0xFF;
  c.peer_endpoint = (w1 >> 8) & 0xFF;
  c.peer = w1 & 0xFF;
  c.length = get_be32(e + 8);
  c.tag = get_be32(e + 12);
  c.slot = get_be32(e + 16);
  c.handler = get_be32(e + 20);
  ++cq_next_;
  if (c.kind == grim::kCqSent || c.kind == grim::kCqSendError) ++sends_done_;
  else ++recvs_done_;
  return c;
}

GrimCompletion GrimDeviceEndpoint::wait_completion() {
  if (pending_.empty()) return next_from_queue();
  const GrimCompletion c = pending_.front();
  pending_.pop_front();
  return c;
}

bool GrimDeviceEndpoint::poll_completion(GrimCompletion& c) {
  if (pending_.empty()) {
    const std::uint8_t* e = local(cq_ + ((cq_next_ - 1) % cfg_.cq_entries) * grim::kCqEntryBytes, grim::kCqEntryBytes);
    if (get_be32(e) != cq_next_) return false;
    pending_.push_back(next_from_queue());
  }
  c = pending_.front();
  pending_.pop_front();
  return true;
}

}  // namespace sanvp::grim_host
