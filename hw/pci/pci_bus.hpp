// PciBus: the host's I/O bus as a timing model. One transaction at a time (host PIO and NIC
// DMA bursts share it); a transaction of n bytes costs `latency` cycles (arbitration, address,
// target latency) plus ceil(n / width) data cycles. Defaults: 32-bit, 33 MHz PCI of the
// LANai-board era (peak 132 MB/s).
#pragma once
#include <cstdint>
#include <string>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"

namespace sanvp {

struct PciConfig {
  int width = 4;              // bytes per data cycle
  double clock_mhz = 33.0;
  int latency = 8;            // cycles per transaction before the first data cycle
  int burst = 256;            // longest DMA burst in bytes (a DMA is split into bursts)
  static PciConfig from_params(ParamValues& pv, const std::string& path);
  Time cycle() const;         // one bus cycle in ps (rounded to the nearest ps)
  // Bus time of one transaction of `bytes` bytes.
  Time transaction(std::uint32_t bytes) const;
};

class PciBus {
 public:
  static inline const ParamRegistrar params{{
      {"pci", "width", ParamType::Int, "bytes", "4", "data bytes per PCI cycle (4 = 32-bit, 8 = 64-bit)"},
      {"pci", "clock", ParamType::Real, "MHz", "33", "PCI clock"},
      {"pci", "latency", ParamType::Int, "cycles", "8", "cycles per transaction before data moves (arbitration, address, target latency)"},
      {"pci", "burst", ParamType::Int, "bytes", "256", "longest DMA burst; a DMA is split into bursts that other transactions may interleave with"},
  }};

  explicit PciBus(const PciConfig& cfg) : cfg_(cfg) {}
  const PciConfig& config() const { return cfg_; }
  // Reserves the bus for one transaction of `bytes` that may start at `earliest`; returns the
  // time it ends. Transactions are served in the order they are reserved.
  Time reserve(Time earliest, std::uint32_t bytes);
  Time busy_time() const { return busy_; }
  std::uint64_t transactions() const { return count_; }

 private:
  PciConfig cfg_;
  Time free_at_ = 0;
  Time busy_ = 0;
  std::uint64_t count_ = 0;
};

// Host memory as the NIC's DMA engine sees it (platform/host implements it).
class HostMemoryPort {
 public:
  virtual ~HostMemoryPort() = default;
  // False if [addr, addr + len) is not host memory.
  virtual bool read(std::uint64_t addr, std::uint8_t* dst, std::uint32_t len) = 0;
  virtual bool write(std::uint64_t addr, const std::uint8_t* src, std::uint32_t len) = 0;
};

}  // namespace sanvp
