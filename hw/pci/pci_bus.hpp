// PciBus: the host's I/O bus. Timing: one transaction at a time (host PIO, the NIC's host-DMA
// bursts and every peripheral device's DMA bursts all reserve it here, so they serialize and
// every rate follows width and clock); a transaction of n bytes costs `latency` cycles
// (arbitration, address, target latency) plus ceil(n / width) data cycles. Decoding: its
// PciAddressMap (pci_address_map.hpp) says which window an address belongs to. Defaults:
// 32-bit, 33 MHz PCI of the LANai-board era (peak 132 MB/s).
#pragma once
#include <cstdint>
#include <string>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"
#include "hw/pci/pci_address_map.hpp"
#include "hw/pci/pci_bus_params.hpp"

namespace sanvp {

// width (bytes per data cycle), clock_mhz, latency (cycles per transaction before the first
// data cycle), burst (longest DMA burst; a DMA is split into bursts), nic_base and device_base
// (where the NIC's and the devices' windows sit in the bus address map): pci_bus.params.yaml.
struct PciConfig : PciParams {
  static PciConfig from_params(ParamValues& pv, const std::string& path);
  Time cycle() const;         // one bus cycle in ps (rounded to the nearest ps)
  // Bus time of one transaction of `bytes` bytes.
  Time transaction(std::uint32_t bytes) const;
};

class PciBus {
 public:

  explicit PciBus(const PciConfig& cfg) : cfg_(cfg) {}
  const PciConfig& config() const { return cfg_; }
  PciAddressMap& map() { return map_; }
  const PciAddressMap& map() const { return map_; }
  // Reserves the bus for one transaction of `bytes` that may start at `earliest`; returns the
  // time it ends. Transactions are served in the order they are reserved.
  Time reserve(Time earliest, std::uint32_t bytes);
  Time busy_time() const { return busy_; }
  std::uint64_t transactions() const { return count_; }

 private:
  PciConfig cfg_;
  PciAddressMap map_;
  Time free_at_ = 0;
  Time busy_ = 0;
  std::uint64_t count_ = 0;
};

}  // namespace sanvp
