// GrimDeviceEndpoint: a GRIM endpoint on a PCI peripheral device (hw/pci/pci_device.hpp), the
// device-side counterpart of GrimDriver, used by the device's program (its SystemC thread). No
// host CPU is involved: the device finds the firmware's host-interface block through the NIC's
// mailbox register, writes its endpoint block (completion queue and doorbell in its own memory,
// the channels it owns) and its send/receive descriptors into NIC SRAM by its own PCI writes
// and rings the NIC's doorbell; the NIC's DMA moves payload between the device's memory and the
// network, writes the completion entries into the device's memory and then the entry's seq into
// the device's doorbell register, which wakes the program. The device's own processing costs no
// simulated time (a hardware engine); its PCI transactions do.
#pragma once
#include <cstdint>
#include <deque>

#include "hw/pci/pci_bus.hpp"
#include "hw/pci/pci_device.hpp"
#include "platform/grim/grim_endpoint.hpp"

namespace sanvp::grim_host {

struct GrimDeviceConfig {
  std::uint32_t endpoint = 1;        // 1..grim::kMaxEndpoints-1
  std::uint32_t channels = 0x8;      // logical channels it owns, bit c (none of the host's or another device's)
  std::uint32_t cq_entries = 128;    // at least the 96 operations that may be outstanding
};

class GrimDeviceEndpoint : public GrimEndpoint {
 public:
  // `bus` is the PCI bus the device sits on (its host's). UserError for a bad configuration.
  GrimDeviceEndpoint(PciDevice& dev, PciBus& bus, const GrimDeviceConfig& cfg);
  // Waits for the firmware's host interface (mailbox, polled every 1 us), opens the endpoint
  // and waits until the firmware took it (SimError if refused: its channels are not free).
  void open() override;
  void post_recv(std::uint64_t addr, std::uint32_t capacity) override;
  void send_to(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, std::uint64_t addr, std::uint32_t length,
               std::uint32_t tag, std::uint32_t handler) override;
  GrimCompletion wait_completion() override;
  bool poll_completion(GrimCompletion& c) override;
  std::uint32_t sends_outstanding() const override { return sq_produced_ - sends_done_; }
  std::uint64_t alloc(std::uint64_t bytes) override;
  void write_memory(std::uint64_t addr, const std::uint8_t* src, std::uint32_t n) override;
  void read_memory(std::uint64_t addr, std::uint8_t* dst, std::uint32_t n) override;
  std::uint32_t endpoint() const override { return cfg_.endpoint; }
  PciDevice& device() { return dev_; }
  std::uint64_t pci_writes() const { return pci_writes_; }  // PCI transactions this driver issued (descriptors, doorbells, open)

 private:
  std::uint64_t sram(std::uint32_t hif_off) const;  // bus address of a word of the host-interface block
  void write_words(std::uint64_t bus_addr, std::initializer_list<std::uint32_t> words);
  std::uint32_t read32(std::uint64_t bus_addr);
  std::uint8_t* local(std::uint64_t addr, std::uint32_t n);  // device memory at bus address addr
  GrimCompletion next_from_queue();

  PciDevice& dev_;
  PciBus& bus_;
  GrimDeviceConfig cfg_;
  std::uint32_t hif_ = 0, block_ = 0;
  std::uint64_t cq_ = 0, brk_ = 0;
  std::uint32_t sq_produced_ = 0, rq_produced_ = 0, sends_done_ = 0, recvs_done_ = 0, cq_next_ = 1;
  std::uint64_t pci_writes_ = 0;
  std::deque<GrimCompletion> pending_;
};

}  // namespace sanvp::grim_host
