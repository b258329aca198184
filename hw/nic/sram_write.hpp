// A write into NIC SRAM by an initiator other than the core's DMI stores, as the SRAM reports it
// to its listeners (the core drops predecoded code it touched; the debugger's watchpoints).
#pragma once
#include <cstdint>

#include "hw/base/time.hpp"

namespace sanvp::nic {

enum class SramWriter : std::uint8_t { kRecvDma, kSendDma, kHostDma, kPci, kDebugger, kLoader, kBus };

inline const char* sram_writer_name(SramWriter w) {
  static const char* const kNames[] = {"RECV_DMA", "SEND_DMA", "HOST_DMA", "PCI", "DEBUGGER", "LOADER", "BUS"};
  return kNames[static_cast<unsigned>(w)];
}

struct SramWrite {
  SramWriter who = SramWriter::kLoader;
  std::uint32_t addr = 0, len = 0;  // the bytes written (SRAM offset; the core's address once it is told)
  Time when = 0;                    // simulated time the bytes landed
};

}  // namespace sanvp::nic
