// Nic: a LANai-like network interface. The LanaiCore runs firmware from SRAM and drives the
// engines through memory-mapped registers (memory_map.hpp):
//
//   core --> bus --> SRAM (0x0000_0000)        lazily backed, default 1 MiB
//                +-> system registers          console, exit, time
//                +-> NIC registers             NicRegs: ISR/IMR/WAIT, RTC, timers, host words
//                      +-> HostDma             SRAM <-> host memory over the PCI bus model
//                      +-> SendDma             SRAM -> link (STOP/GO, CRC-8)
//                      +-> RecvDma             link -> SRAM receive buffers
//
// On the host's PCI bus the NIC is a target (pci_sram, pci_registers: its host claims them at
// pci.nic_base + the NIC-local address) and a master (HostDma, decoded by the bus's address
// map: host memory, or a peer such as a peripheral device).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>

#include "hw/link/link_port.hpp"
#include "hw/nic/bus.hpp"
#include "hw/nic/core.hpp"
#include "hw/nic/host_dma.hpp"
#include "hw/nic/nic_regs.hpp"
#include "hw/nic/oscillator.hpp"
#include "hw/nic/recv_dma.hpp"
#include "hw/nic/send_dma.hpp"
#include "hw/nic/sram.hpp"
#include "hw/nic/sys_regs.hpp"
#include "hw/pci/pci_bus.hpp"
#include "hw/nic/nic_params.hpp"

namespace sanvp::nic {

class Nic : public sc_core::sc_module {
 public:

  // `path` params are resolved under this module's name (e.g. "n3.nic.core.clock"). The host
  // DMA reaches whatever pci's address map decodes; `host` is claimed there at bus address 0
  // unless the map already has it (Host claims its memory itself).
  Nic(sc_core::sc_module_name name, ParamValues& pv, std::uint32_t node_id, LanaiCore::Program program,
      PciBus& pci, HostMemoryPort* host, std::uint64_t seed);

  Sram& sram() { return *sram_; }
  LanaiCore& core() { return *core_; }
  NicRegs& regs() { return *regs_; }
  HostDma& host_dma() { return *hdma_; }
  SendDma& send_dma() { return *send_; }
  RecvDma& recv_dma() { return *recv_; }
  SysRegs& sys() { return *sys_; }
  Oscillator& oscillator() { return *osc_; }
  std::uint32_t node_id() const { return node_id_; }

  // Fabric wiring (same shape as a test endpoint).
  void attach_output(LinkChannel* ch) { send_->attach_output(ch); }
  ControlReceiver* output_control() { return send_->output_control(); }
  void attach_input(LinkChannel* ch) { recv_->attach_input(ch); }
  FlitReceiver* input() { return recv_.get(); }
  LinkPort link_port();  // named after the module, for connect() (hw/link/link_port.hpp)
  FlowController& input_buffer() { return recv_->input_buffer(); }

  // The NIC as a PCI target (windows at NIC-local addresses, so offsets are SRAM addresses and
  // register offsets): SRAM, any bytes; the registers a bus master may use, as whole aligned
  // words: DOORBELL (write: raises kIrqDoorbell), MAILBOX and ISR (read). Anything else in the
  // register window is a target abort.
  PciTarget& pci_sram() { return *pci_sram_; }
  PciTarget& pci_registers() { return *pci_regs_; }
  // One word by a bus master at the current simulated time (the caller has paid the PCI time):
  // SRAM bytes or a NIC register (address >= kNicRegBase); SimError if the bus may not do it.
  void host_write32(std::uint32_t addr, std::uint32_t value);
  std::uint32_t host_read32(std::uint32_t addr);

  void declare_traces();
  // Where this NIC's probes go (probe.hpp): with node id and RTC at the time of the store.
  void set_probe_sink(ProbeSink sink) { probe_sink_ = std::move(sink); }
  // The NIC's statistics, each block contributing its own keys (core, regs, hdma, send, recv;
  // one flat object, as the reports have it).
  nlohmann::json stats_json() const;

 private:
  bool bus_reg_read(std::uint32_t off, std::uint32_t& value) const;
  bool bus_reg_write(std::uint32_t off, std::uint32_t value);

  ProbeSink probe_sink_;
  std::uint32_t node_id_;
  Bus bus_;
  std::unique_ptr<Sram> sram_;
  std::unique_ptr<SysRegs> sys_;
  std::unique_ptr<Oscillator> osc_;
  std::unique_ptr<NicRegs> regs_;
  std::unique_ptr<HostDma> hdma_;
  std::unique_ptr<SendDma> send_;
  std::unique_ptr<RecvDma> recv_;
  std::unique_ptr<LanaiCore> core_;
  std::unique_ptr<PciTarget> pci_sram_, pci_regs_;
};

}  // namespace sanvp::nic
