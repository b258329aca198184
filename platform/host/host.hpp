// Host: a workstation on the network — memory, its PCI bus, and application code running as
// SystemC threads. Host work costs simulated time only where the model says so: programmed
// I/O (PCI transactions, the host stalls until they complete), a fixed software cost per driver
// call, and the polling grid on which it notices completions.
//
// The PCI bus address map of a host (docs/nic.md, "Host side"):
//   0 .. host.memory                      host memory (bus address = host physical address)
//   pci.nic_base + NIC-local address      the NIC: SRAM at + 0, registers at + 0x0200_0000
//   pci.device_base + k * slot (or pcidev.base)  each peripheral device: registers, memory at + 0x1000
// Everything else is a master abort. Interrupt sources: 0 is the NIC's HOST_IRQ, then one per
// device, each delivered host.irq after it is raised.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/nic/nic.hpp"
#include "hw/pci/pci_bus.hpp"
#include "hw/pci/pci_device.hpp"
#include "platform/host/host_irq.hpp"
#include "platform/host/host_memory.hpp"
#include "platform/host/host_params.hpp"

namespace sanvp::host {

// memory, call (driver call cost), poll (polling period), irq (interrupt latency), notify:
// host.params.yaml.
struct HostConfig : HostParams {
  bool use_irq = false;   // drivers wait for interrupts instead of polling (notify = irq)
  static HostConfig from_params(ParamValues& pv, const std::string& path);
};

class Host {
 public:
  static constexpr std::size_t kNicIrq = 0;  // the NIC's interrupt source

  // Claims host memory at bus address 0 on its PCI bus.
  Host(std::string name, const HostConfig& cfg, const PciConfig& pci);
  const std::string& name() const { return name_; }
  const HostConfig& config() const { return cfg_; }
  HostMemory& memory() { return mem_; }
  PciBus& pci() { return pci_; }
  // Claims the NIC's SRAM and register windows at pci.nic_base (UserError if they overlap host
  // memory or a device) and wires its HOST_IRQ to interrupt source kNicIrq.
  void attach_nic(nic::Nic* n);
  nic::Nic& nic() { return *nic_; }
  // Bus address of a NIC-local address (SRAM or register), for DMA descriptors and PIO.
  std::uint64_t nic_bus_address(std::uint32_t nic_addr) const { return pci_.config().nic_base + nic_addr; }

  // A peripheral device on this host's bus (before the simulation starts): its window at
  // cfg.base, or with base 0 at the next free slot from pci.device_base; its interrupt line a
  // new source (device_irq). Its module is "<host>_<name>" with '.' as '_' ("n0_host_dev0").
  PciDevice& add_device(const std::string& name, PciDeviceConfig cfg);
  std::size_t devices() const { return devices_.size(); }
  PciDevice& device(std::size_t i) { return *devices_.at(i); }
  std::size_t device_irq(std::size_t i) const { return device_irq_.at(i); }

  // Interrupt sources, each waitable on its own (host_irq.hpp).
  std::size_t add_irq_source(const std::string& what);
  std::size_t irq_sources() const { return irqs_.size(); }
  HostIrq& irq(std::size_t source) { return *irqs_.at(source); }
  const sc_core::sc_event& interrupt_event(std::size_t source = kNicIrq) const { return irqs_.at(source)->event(); }
  std::uint64_t interrupts(std::size_t source = kNicIrq) const { return irqs_.at(source)->raised(); }

  // Programmed I/O (call from a host thread): one PCI transaction of 4*n bytes; the host
  // stalls until it completes, then the words reach their target. The NIC-local forms address
  // the NIC (nic_bus_address); the _bus forms any bus address. A master or target abort is a
  // SimError naming the address and the window.
  void pio_write(std::uint32_t nic_addr, const std::vector<std::uint32_t>& words);
  std::uint32_t pio_read(std::uint32_t nic_addr);
  void pio_write_bus(std::uint64_t addr, const std::vector<std::uint32_t>& words);
  std::uint32_t pio_read_bus(std::uint64_t addr);
  // A bump allocator over host memory (64-byte aligned), for application buffers.
  std::uint64_t alloc(std::uint64_t bytes);
  // Runs `app` as a host thread starting at time 0.
  void spawn(const std::string& what, std::function<void()> app);
  std::uint64_t pio_transactions() const { return pio_; }
  Time pio_time() const { return pio_time_; }

 private:
  Time pio_wait(std::uint32_t bytes);

  std::string name_;
  HostConfig cfg_;
  HostMemory mem_;
  PciBus pci_;
  nic::Nic* nic_ = nullptr;
  std::vector<std::unique_ptr<PciDevice>> devices_;
  std::vector<std::size_t> device_irq_;
  std::vector<std::unique_ptr<HostIrq>> irqs_;
  std::uint64_t next_device_ = 0;  // next free bus address for a placed device
  std::uint64_t brk_ = 1u << 20;  // the first MiB is left to the "kernel"
  std::uint64_t pio_ = 0;
  Time pio_time_ = 0;
};

}  // namespace sanvp::host
