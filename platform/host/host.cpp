#include "platform/host/host.hpp"
#include "hw/base/sim_time.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/endian.hpp"
#include "hw/base/error.hpp"
#include "hw/nic/memory_map.hpp"

namespace sanvp::host {

HostConfig HostConfig::from_params(ParamValues& pv, const std::string& path) {
  HostConfig c;
  c.read_params(pv, path);
  c.use_irq = c.notify == "irq";
  return c;
}

Host::Host(std::string name, const HostConfig& cfg, const PciConfig& pci)
    : name_(std::move(name)), cfg_(cfg), mem_(cfg.memory), pci_(pci), next_device_(pci.device_base) {
  pci_.map().claim(name_ + " memory", 0, cfg_.memory, &mem_);
  add_irq_source("nic");  // kNicIrq
}

void Host::attach_nic(nic::Nic* n) {
  nic_ = n;
  const std::string nm = n->name();
  pci_.map().claim(nm + " SRAM", nic_bus_address(nic::map::kSramBase), n->sram().size(), &n->pci_sram());
  pci_.map().claim(nm + " registers", nic_bus_address(nic::map::kNicRegBase), nic::map::kNicRegSize, &n->pci_registers());
  n->regs().on_host_irq = [this](std::uint32_t v) { irqs_[kNicIrq]->raise(v); };
  for (auto& d : devices_) d->set_nic_doorbell(nic_bus_address(nic::map::kNicRegBase + nic::map::nic::kDoorbell));
}

PciDevice& Host::add_device(const std::string& name, PciDeviceConfig cfg) {
  if (cfg.base == 0) {
    // Next slot aligned to the window's size (a power of two), as a BIOS would assign a BAR.
    const std::uint64_t w = cfg.window_bytes();
    cfg.base = (next_device_ + w - 1) / w * w;
    next_device_ = cfg.base + w;
  }
  // A top-level module: SystemC names may not contain '.', so "n0.host" + "dev0" is "n0_host_dev0".
  std::string module = name_ + "_" + name;
  std::replace(module.begin(), module.end(), '.', '_');
  devices_.push_back(std::make_unique<PciDevice>(module.c_str(), cfg, pci_));
  PciDevice& d = *devices_.back();
  const std::size_t src = add_irq_source(name);
  device_irq_.push_back(src);
  d.on_irq = [this, src](std::uint32_t v) { irqs_[src]->raise(v); };
  if (nic_) d.set_nic_doorbell(nic_bus_address(nic::map::kNicRegBase + nic::map::nic::kDoorbell));
  return d;
}

std::size_t Host::add_irq_source(const std::string& what) {
  irqs_.push_back(std::make_unique<HostIrq>(name_ + "_irq_" + what, cfg_.irq));
  return irqs_.size() - 1;
}

// One PIO transaction of `bytes` on the bus: the host stalls until it ends.
Time Host::pio_wait(std::uint32_t bytes) {
  const Time start = now_ps();
  const Time end = pci_.reserve(start, bytes);
  sc_core::wait(sc_core::sc_time::from_value(end - start));
  ++pio_;
  pio_time_ += end - start;
  return end;
}

void Host::pio_write(std::uint32_t nic_addr, const std::vector<std::uint32_t>& words) {
  if (!nic_) throw SimError(fmt::format("{}: PIO to the NIC, but this host has none", name_));
  pio_write_bus(nic_bus_address(nic_addr), words);
}

std::uint32_t Host::pio_read(std::uint32_t nic_addr) {
  if (!nic_) throw SimError(fmt::format("{}: PIO to the NIC, but this host has none", name_));
  return pio_read_bus(nic_bus_address(nic_addr));
}

void Host::pio_write_bus(std::uint64_t addr, const std::vector<std::uint32_t>& words) {
  const auto bytes = static_cast<std::uint32_t>(4 * words.size());
  pio_wait(bytes);
  std::vector<std::uint8_t> b(bytes);
  for (std::size_t i = 0; i < words.size(); ++i) put_be32(b.data() + 4 * i, words[i]);
  const PciStatus s = pci_.map().write(addr, b.data(), bytes);
  if (s != PciStatus::kOk) throw SimError(fmt::format("{}: host PIO {}", name_, pci_.map().describe(s, addr, bytes, true)));
}

std::uint32_t Host::pio_read_bus(std::uint64_t addr) {
  pio_wait(4);
  std::uint8_t b[4] = {0, 0, 0, 0};
  const PciStatus s = pci_.map().read(addr, b, 4);
  if (s != PciStatus::kOk) throw SimError(fmt::format("{}: host PIO {}", name_, pci_.map().describe(s, addr, 4, false)));
  return get_be32(b);
}

std::uint64_t Host::alloc(std::uint64_t bytes) {
  const std::uint64_t a = (brk_ + 63) & ~std::uint64_t{63};
  if (a + bytes > cfg_.memory)
    throw UserError(fmt::format("{}: host memory exhausted ({} bytes requested, host.memory = {})", name_, bytes, cfg_.memory));
  brk_ = a + bytes;
  return a;
}

void Host::spawn(const std::string& what, std::function<void()> app) {
  sc_core::sc_spawn_options o;
  sc_core::sc_spawn(std::move(app), (name_ + "_" + what).c_str(), &o);
}

}  // namespace sanvp::host
