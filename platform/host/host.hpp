// Host: a workstation on the network — memory, its PCI bus, and application code running as
// SystemC threads. Host work costs simulated time only where the model says so: programmed
// I/O to the NIC (PCI transactions, the host stalls until they complete), a fixed software
// cost per driver call, and the polling grid on which it notices completions.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/nic/nic.hpp"
#include "hw/pci/pci_bus.hpp"
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

  Host(std::string name, const HostConfig& cfg, const PciConfig& pci);
  const std::string& name() const { return name_; }
  const HostConfig& config() const { return cfg_; }
  HostMemory& memory() { return mem_; }
  PciBus& pci() { return pci_; }
  void attach_nic(nic::Nic* n);
  // Interrupts from the NIC: the event fires host.irq after the NIC raised one.
  const sc_core::sc_event& interrupt_event() const { return irq_ev_; }
  std::uint64_t interrupts() const { return irqs_; }
  nic::Nic& nic() { return *nic_; }

  // Programmed I/O (call from a host thread): one PCI transaction of 4*n bytes; the host
  // stalls until it completes, then the words reach NIC SRAM or the doorbell register.
  void pio_write(std::uint32_t nic_addr, const std::vector<std::uint32_t>& words);
  std::uint32_t pio_read(std::uint32_t nic_addr);
  // A bump allocator over host memory (64-byte aligned), for application buffers.
  std::uint64_t alloc(std::uint64_t bytes);
  // Runs `app` as a host thread starting at time 0.
  void spawn(const std::string& what, std::function<void()> app);
  std::uint64_t pio_transactions() const { return pio_; }
  Time pio_time() const { return pio_time_; }

 private:
  std::string name_;
  HostConfig cfg_;
  HostMemory mem_;
  PciBus pci_;
  nic::Nic* nic_ = nullptr;
  std::uint64_t brk_ = 1u << 20;  // the first MiB is left to the "kernel"
  std::uint64_t pio_ = 0;
  Time pio_time_ = 0;
  std::uint64_t irqs_ = 0;
  sc_core::sc_event irq_ev_;
};

}  // namespace sanvp::host
