#include "hw/pci/pci_device.hpp"

#include <fmt/format.h>

#include "hw/base/endian.hpp"
#include "hw/base/error.hpp"
#include "hw/base/log.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/pci/pci_device_map.hpp"
#include "hw/pci/pci_dma.hpp"
#include "hw/pci/pci_targets.hpp"

namespace sanvp {

namespace m = pcidev_map;

PciDeviceConfig PciDeviceConfig::from_params(ParamValues& pv, const std::string& path) {
  PciDeviceConfig c;
  c.read_params(pv, path);
  if (c.base % m::kRegBytes) pv.fail(path, "pcidev", "base", fmt::format("0x{:x} is not 4 KiB aligned", c.base));
  return c;
}

void PciDeviceConfig::check(const std::string& where) const {
  check_ranges(where);
  if (base % m::kRegBytes) throw UserError(fmt::format("{}: pcidev.base = 0x{:x} is not 4 KiB aligned", where, base));
}

std::uint64_t PciDeviceConfig::window_bytes() const {
  std::uint64_t w = m::kRegBytes;
  while (w < m::kMemOffset + memory) w *= 2;
  return w;
}

PciDevice::PciDevice(sc_core::sc_module_name name, const PciDeviceConfig& cfg, PciBus& bus)
    : sc_module(name), cfg_(cfg), bus_(bus), mem_(std::make_unique<std::uint8_t[]>(cfg.memory)),
      regs_target_(std::make_unique<PciRegisterTarget>([this](std::uint32_t off, std::uint32_t& v) { return reg_read(off, v); },
                                                       [this](std::uint32_t off, std::uint32_t v) { return reg_write(off, v); })),
      mem_target_(std::make_unique<PciRamTarget>(mem_.get())) {
  cfg_.check(this->name());
  if (cfg_.base == 0) throw UserError(fmt::format("{}: the device has no bus address (pcidev.base = 0: let its host place it)", this->name()));
  bus_.map().claim(std::string(this->name()) + " registers", cfg_.base, m::kRegBytes, regs_target_.get());
  bus_.map().claim(std::string(this->name()) + " memory", memory_address(), cfg_.memory, mem_target_.get());
}

std::uint64_t PciDevice::memory_address(std::uint64_t local) const { return cfg_.base + m::kMemOffset + local; }

void PciDevice::run(std::function<void(PciDevice&)> program) {
  sc_core::sc_spawn_options o;
  sc_core::sc_spawn([this, p = std::move(program)] { p(*this); }, (std::string(name()) + "_program").c_str(), &o);
}

bool PciDevice::fail(std::string why) {
  ++stats_.errors;
  error_ = true;
  last_error_ = std::move(why);
  log::warn("{}: {}", name(), last_error_);
  return false;
}

bool PciDevice::dma(std::uint64_t bus_addr, std::uint64_t local, std::uint32_t len, bool to_bus) {
  if (local > cfg_.memory || len > cfg_.memory - local)
    return fail(fmt::format("DMA of {} bytes at local 0x{:x} runs past the device memory ({} bytes)", len, local, cfg_.memory));
  const Time start = now_ps();
  busy_ = true;
  ++stats_.dmas;
  sc_core::wait(sc_core::sc_time::from_value(cfg_.setup));
  const PciDmaResult r = pci_dma(bus_, bus_addr, mem_.get() + local, len, to_bus);
  busy_ = false;
  stats_.busy += now_ps() - start;
  if (!r.ok()) return fail(bus_.map().describe(r.status, r.addr, r.len, to_bus));
  (to_bus ? stats_.bytes_written : stats_.bytes_read) += len;
  return true;
}

bool PciDevice::dma_write(std::uint64_t bus_addr, std::uint64_t local, std::uint32_t len) { return dma(bus_addr, local, len, true); }
bool PciDevice::dma_read(std::uint64_t bus_addr, std::uint64_t local, std::uint32_t len) { return dma(bus_addr, local, len, false); }

bool PciDevice::write32(std::uint64_t bus_addr, std::uint32_t value) {
  std::uint8_t b[4];
  put_be32(b, value);
  const PciDmaResult r = pci_dma(bus_, bus_addr, b, 4, true);
  if (!r.ok()) return fail(bus_.map().describe(r.status, r.addr, r.len, true));
  stats_.bytes_written += 4;
  return true;
}

bool PciDevice::ring_nic_doorbell(std::uint32_t value) {
  if (!nic_doorbell_) return fail("ring_nic_doorbell: no NIC on this bus (its host sets the doorbell address when it attaches one)");
  return write32(nic_doorbell_, value);
}

std::uint32_t PciDevice::wait_doorbell() {
  while (bells_.empty()) sc_core::wait(bell_ev_);
  const std::uint32_t v = bells_.front();
  bells_.pop_front();
  return v;
}

void PciDevice::raise_irq(std::uint32_t value) {
  ++stats_.irqs;
  if (on_irq) on_irq(value);
}

std::uint32_t PciDevice::status() const {
  return (busy_ ? m::kStatusBusy : 0u) | (error_ ? m::kStatusError : 0u) | (static_cast<std::uint32_t>(stats_.errors & 0xFFFF) << 16);
}

bool PciDevice::reg_read(std::uint32_t off, std::uint32_t& v) const {
  switch (off) {
    case m::kDoorbell: v = last_bell_; return true;
    case m::kDoorbells: v = static_cast<std::uint32_t>(stats_.doorbells); return true;
    case m::kStatus: v = status(); return true;
    case m::kIrqs: v = static_cast<std::uint32_t>(stats_.irqs); return true;
    case m::kScratch: v = scratch_; return true;
    default: return false;
  }
}

bool PciDevice::reg_write(std::uint32_t off, std::uint32_t v) {
  if (off == m::kScratch) { scratch_ = v; return true; }
  if (off != m::kDoorbell) return false;
  last_bell_ = v;
  ++stats_.doorbells;
  bells_.push_back(v);
  bell_ev_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

}  // namespace sanvp
