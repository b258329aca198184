// HostDma: the NIC's host DMA engine. Firmware queues 16-byte descriptors in an SRAM ring
// (local address, bus address, length, control) and advances HDMA_HEAD; the engine serves
// them in order over the host's PCI bus (pci_dma: bursts that host PIO and other masters
// interleave with, decoded by the bus address map, so the bus address may be host memory or a
// peer's window such as a peripheral device's memory or doorbell), writes the completion status
// into the descriptor (kHdmaErrBit on an address outside SRAM, a master or a target abort),
// advances HDMA_TAIL and raises kIrqHdmaDone. Data moves at the end of each burst.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "hw/nic/irq.hpp"
#include "hw/nic/nic_regs.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sram.hpp"
#include "hw/pci/pci_bus.hpp"
#include "hw/nic/host_dma_params.hpp"
#include "hw/base/observer_list.hpp"

namespace sanvp::nic {

class HostDma : public sc_core::sc_module {
 public:

  struct Stats { std::uint64_t descriptors = 0, bytes_to_sram = 0, bytes_to_host = 0, errors = 0; Time busy = 0; };
  // Observer: (descriptor index, local, host, length, to_sram, start, end) for timelines.
  using Observer = std::function<void(std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t, bool, Time, Time)>;

  SC_HAS_PROCESS(HostDma);
  HostDma(sc_core::sc_module_name name, Sram& sram, PciBus& pci, RaiseIrq raise, Time setup);

  static const RegisterMap<HostDma> kRegisters;  // HDMA_* (host_dma.cpp)
  RegisterWindow& registers() { return bank_; }
  bool reg_read(std::uint32_t off, std::uint32_t& value) { return bank_.reg_read(off, value); }
  bool reg_write(std::uint32_t off, std::uint32_t value) { return bank_.reg_write(off, value); }
  // Each call adds a subscriber (tests, timelines).
  void add_observer(Observer fn) { observer_.add(std::move(fn)); }
  void set_observer(Observer fn) { add_observer(std::move(fn)); }
  const Stats& stats() const { return stats_; }
  const std::string& last_error() const { return last_error_; }  // why the last failed descriptor failed
  nlohmann::json stats_json() const;  // what the NIC reports of this engine (Nic::stats_json)
  bool busy() const { return busy_; }
  void declare_traces();

 private:
  void run();
  std::uint32_t transfer(std::uint32_t local, std::uint64_t bus, std::uint32_t len, bool to_sram);

  Sram& sram_;
  PciBus& pci_;
  RaiseIrq raise_;
  Time setup_;
  std::uint32_t ring_ = 0, size_ = 0, head_ = 0, tail_ = 0;
  bool busy_ = false;
  sc_core::sc_event kick_;
  std::string last_error_;
  ObserverList<std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t, bool, Time, Time> observer_;
  Stats stats_;
  TraceSignal state_sig_, len_sig_;
  RegisterBank<HostDma> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
