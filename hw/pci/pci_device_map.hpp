// The register window of a PCI peripheral device (hw/pci/pci_device.hpp), shared by the model,
// host code and NIC firmware (fw/nic.h includes it): offsets from the device's bus window base.
// Registers are 32-bit, big-endian, accessed as whole aligned words; any other access to the
// register page is a target abort.
//
//   window + 0x0000  registers (this file), 4 KiB
//   window + 0x1000  the device's local memory (pcidev.memory bytes): its message buffers
#pragma once
#include <stdint.h>

namespace sanvp::pcidev_map {

inline constexpr uint32_t kRegBytes = 0x1000;   // the register page
inline constexpr uint32_t kMemOffset = 0x1000;  // local memory starts here

inline constexpr uint32_t kDoorbell = 0x000;   // W: rings the device (value queued, counted, wakes its program); R: last value
inline constexpr uint32_t kDoorbells = 0x004;  // R: doorbell writes so far, mod 2^32
inline constexpr uint32_t kStatus = 0x008;     // R: kStatusBusy, kStatusError; bits 31..16 failed DMAs, mod 2^16
inline constexpr uint32_t kIrqs = 0x00C;       // R: interrupts the device raised to the host, mod 2^32
inline constexpr uint32_t kScratch = 0x010;    // RW: a plain word (PIO tests, a protocol's own use)

inline constexpr uint32_t kStatusBusy = 1u << 0;   // a DMA is in progress
inline constexpr uint32_t kStatusError = 1u << 1;  // sticky: a DMA ended in a master or target abort

}  // namespace sanvp::pcidev_map
