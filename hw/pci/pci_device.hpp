// PciDevice: a generic PCI peripheral — a second bus master beside the NIC, for GRIM's device
// endpoints. It has a register window (a doorbell the NIC or the host writes, status, an
// interrupt line to the host; pci_device_map.hpp), local memory (its message buffers) and a DMA
// engine that reads and writes any decoded bus address (NIC SRAM through the NIC's window, host
// memory, another device) over the host's shared PciBus. Its behaviour is a C++ program run as
// a thread (run()), calling the driver-like API below; no host CPU is involved.
//
//   dev.run([&](PciDevice& d) {
//     d.dma_write(nic_sram_buf, 0, 64);          // local memory -> NIC SRAM
//     d.ring_nic_doorbell(1);                    // 4-byte write to the NIC's DOORBELL
//     d.wait_doorbell();                         // the NIC's host DMA wrote our doorbell
//   });
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>

#include "hw/base/params.hpp"
#include "hw/pci/pci_bus.hpp"
#include "hw/pci/pci_device_params.hpp"

namespace sanvp {

// base (0 = placed by the host), memory, setup: pci_device.params.yaml.
struct PciDeviceConfig : PciDeviceParams {
  static PciDeviceConfig from_params(ParamValues& pv, const std::string& path);
  void check(const std::string& where) const;  // ranges and the 4 KiB alignment of base
  // The window: registers then memory, rounded up to a power of two (its placement slot).
  std::uint64_t window_bytes() const;
};

class PciDevice : public sc_core::sc_module {
 public:
  struct Stats { std::uint64_t dmas = 0, bytes_read = 0, bytes_written = 0, errors = 0, doorbells = 0, irqs = 0; Time busy = 0; };

  // Claims its register and memory windows at cfg.base (which must be set) on bus's map.
  PciDevice(sc_core::sc_module_name name, const PciDeviceConfig& cfg, PciBus& bus);

  // Runs `program` as this device's thread from time 0 (call before the simulation starts).
  void run(std::function<void(PciDevice&)> program);

  // ---- the driver-like API, for the program (blocking; SystemC thread context) ----
  // DMA of len bytes between local memory at `local` and bus address `bus_addr`: pcidev.setup,
  // then pci.burst-sized bursts on the shared bus. False on an abort (or a local range outside
  // the memory): the status register's error bit and count are set, last_error() says why.
  bool dma_write(std::uint64_t bus_addr, std::uint64_t local, std::uint32_t len);  // memory -> bus
  bool dma_read(std::uint64_t bus_addr, std::uint64_t local, std::uint32_t len);   // bus -> memory
  // One 4-byte write transaction (no DMA set-up): doorbells and registers of other targets.
  bool write32(std::uint64_t bus_addr, std::uint32_t value);
  bool ring_nic_doorbell(std::uint32_t value);  // write32 to the NIC's DOORBELL (set_nic_doorbell)
  // The oldest doorbell write not yet taken (waits for one); returns the value written.
  std::uint32_t wait_doorbell();
  std::size_t doorbells_pending() const { return bells_.size(); }
  void raise_irq(std::uint32_t value);  // the interrupt line to the host (on_irq)

  // ---- addresses, memory, state ----
  std::uint64_t base() const { return cfg_.base; }
  std::uint64_t reg_address(std::uint32_t off) const { return cfg_.base + off; }
  std::uint64_t memory_address(std::uint64_t local = 0) const;
  std::uint8_t* memory() { return mem_.get(); }
  std::uint64_t memory_bytes() const { return cfg_.memory; }
  void set_nic_doorbell(std::uint64_t bus_addr) { nic_doorbell_ = bus_addr; }
  std::uint32_t status() const;
  const Stats& stats() const { return stats_; }
  const std::string& last_error() const { return last_error_; }
  const PciDeviceConfig& config() const { return cfg_; }
  std::function<void(std::uint32_t)> on_irq;  // wired by the host to an interrupt source

 private:
  bool dma(std::uint64_t bus_addr, std::uint64_t local, std::uint32_t len, bool to_bus);
  bool fail(std::string why);
  bool reg_read(std::uint32_t off, std::uint32_t& v) const;
  bool reg_write(std::uint32_t off, std::uint32_t v);

  PciDeviceConfig cfg_;
  PciBus& bus_;
  std::unique_ptr<std::uint8_t[]> mem_;
  std::unique_ptr<PciTarget> regs_target_, mem_target_;
  std::uint64_t nic_doorbell_ = 0;
  std::deque<std::uint32_t> bells_;
  std::uint32_t last_bell_ = 0, scratch_ = 0;
  bool busy_ = false, error_ = false;
  sc_core::sc_event bell_ev_;
  Stats stats_;
  std::string last_error_;
};

}  // namespace sanvp
