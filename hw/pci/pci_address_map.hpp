// PciAddressMap: the bus address map of one host's PCI bus. Every target claims windows (host
// memory, the NIC's SRAM and registers, each peripheral device's registers and memory); every
// master (host PIO, the NIC's host DMA, device DMA) is decoded through it. An address no window
// claims is a master abort, a window that refuses an access a target abort: both are errors the
// initiator reports (descriptor error bit, device status, SimError for host PIO), never a crash
// or a silent success. Windows may not overlap: claim() refuses it naming both.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sanvp {

// A target's side of a decoded transaction. Offsets are from the start of the claimed window;
// false = target abort (the target refuses this access, e.g. a register it does not let the bus
// write).
class PciTarget {
 public:
  virtual ~PciTarget() = default;
  virtual bool read(std::uint64_t off, std::uint8_t* dst, std::uint32_t len) = 0;
  virtual bool write(std::uint64_t off, const std::uint8_t* src, std::uint32_t len) = 0;
};

// Host memory as the bus sees it: a target claimed at bus address 0 for its whole size (so a
// host physical address is its bus address).
class HostMemoryPort : public PciTarget {
 public:
  virtual std::uint64_t size() const = 0;
};

enum class PciStatus { kOk, kMasterAbort, kTargetAbort };

struct PciWindow {
  std::string name;  // for messages: "n0 SRAM", "n0.host memory", "n0.host.dev0 registers"
  std::uint64_t base = 0, size = 0;
  PciTarget* target = nullptr;
  std::uint64_t end() const { return base + size; }
};

class PciAddressMap {
 public:
  // Claims [base, base + size) for `target`. UserError if it is empty, wraps past 2^64 or
  // overlaps a window already claimed (the message names both windows and their ranges).
  void claim(std::string name, std::uint64_t base, std::uint64_t size, PciTarget* target);
  // The window holding all of [addr, addr + len) (len 0 counts as 1 byte), or nullptr: a burst
  // that does not fit in one window is not decoded (PCI targets disconnect at their boundary).
  const PciWindow* decode(std::uint64_t addr, std::uint32_t len) const;
  const PciWindow* find(const PciTarget* target) const;  // the first window of `target`
  PciStatus read(std::uint64_t addr, std::uint8_t* dst, std::uint32_t len);
  PciStatus write(std::uint64_t addr, const std::uint8_t* src, std::uint32_t len);
  // One line saying what went wrong with an access, for error bits' companion messages.
  std::string describe(PciStatus s, std::uint64_t addr, std::uint32_t len, bool write) const;
  const std::vector<PciWindow>& windows() const { return windows_; }  // sorted by base
  std::uint64_t master_aborts() const { return master_aborts_; }
  std::uint64_t target_aborts() const { return target_aborts_; }

 private:
  std::vector<PciWindow> windows_;
  std::uint64_t master_aborts_ = 0, target_aborts_ = 0;
};

}  // namespace sanvp
