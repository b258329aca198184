#include "platform/host/host.hpp"
#include "hw/base/sim_time.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::host {

HostConfig HostConfig::from_params(ParamValues& pv, const std::string& path) {
  HostConfig c;
  c.read_params(pv, path);
  c.use_irq = c.notify == "irq";
  return c;
}

Host::Host(std::string name, const HostConfig& cfg, const PciConfig& pci) : name_(std::move(name)), cfg_(cfg), mem_(cfg.memory), pci_(pci) {}

void Host::attach_nic(nic::Nic* n) {
  nic_ = n;
  n->regs().on_host_irq = [this](std::uint32_t) {
    ++irqs_;
    irq_ev_.notify(sc_core::sc_time::from_value(cfg_.irq));
  };
}

void Host::pio_write(std::uint32_t nic_addr, const std::vector<std::uint32_t>& words) {
  const Time start = now_ps();
  const Time end = pci_.reserve(start, static_cast<std::uint32_t>(4 * words.size()));
  sc_core::wait(sc_core::sc_time::from_value(end - start));
  ++pio_;
  pio_time_ += end - start;
  for (std::size_t i = 0; i < words.size(); ++i) nic_->host_write32(nic_addr + static_cast<std::uint32_t>(4 * i), words[i]);
}

std::uint32_t Host::pio_read(std::uint32_t nic_addr) {
  const Time start = now_ps();
  const Time end = pci_.reserve(start, 4);
  sc_core::wait(sc_core::sc_time::from_value(end - start));
  ++pio_;
  pio_time_ += end - start;
  return nic_->host_read32(nic_addr);
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
