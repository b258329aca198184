#include "hw/nic/host_dma.hpp"
#include "hw/base/sim_time.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/log.hpp"
#include "hw/pci/pci_dma.hpp"

#include "hw/nic/memory_map.hpp"

namespace sanvp::nic {

namespace r = map::nic;

HostDma::HostDma(sc_core::sc_module_name name, Sram& sram, PciBus& pci, RaiseIrq raise, Time setup)
    : sc_module(name), sram_(sram), pci_(pci), raise_(std::move(raise)), setup_(setup) {
  SC_THREAD(run);
}

void HostDma::declare_traces() {
  state_sig_.declare(name(), "busy", 1);
  len_sig_.declare(name(), "length", 32);
}

const RegisterMap<HostDma> HostDma::kRegisters{"hdma", map::kNicRegBase, {
    {r::kHdmaRing, "HDMA_RING", Access::RW, 0, "SRAM address of the descriptor ring (16-byte aligned: low bits ignored)",
     [](HostDma& m) { return m.ring_; }, [](HostDma& m, std::uint32_t v) { m.ring_ = v & ~15u; }},
    {r::kHdmaSize, "HDMA_SIZE", Access::RW, 0, "ring entries (0 = no ring; larger than 4096 means 4096)",
     [](HostDma& m) { return m.size_; }, [](HostDma& m, std::uint32_t v) { m.size_ = std::min<std::uint32_t>(v, 4096); }},
    {r::kHdmaHead, "HDMA_HEAD", Access::RW, 0, "producer index (firmware), mod 2^32; a write starts the engine",
     [](HostDma& m) { return m.head_; }, [](HostDma& m, std::uint32_t v) { m.head_ = v; m.kick_.notify(sc_core::SC_ZERO_TIME); }},
    {r::kHdmaTail, "HDMA_TAIL", Access::R, 0, "descriptors completed (engine), mod 2^32",
     [](HostDma& m) { return m.tail_; }},
    {r::kHdmaStatus, "HDMA_STATUS", Access::R, 0, "bit 0 busy; bits 31..16 descriptors that failed (mod 2^16)",
     [](HostDma& m) { return (m.busy_ ? 1u : 0u) | (static_cast<std::uint32_t>(m.stats_.errors & 0xFFFF) << 16); }},
}};

nlohmann::json HostDma::stats_json() const { return {{"hdma_descriptors", stats_.descriptors}}; }

// One descriptor's data over the bus; returns kHdmaErrBit (and says why) if it failed.
std::uint32_t HostDma::transfer(std::uint32_t local, std::uint64_t bus, std::uint32_t len, bool to_sram) {
  std::string why;
  if (std::uint64_t{local} + len > sram_.size()) {
    why = fmt::format("local range 0x{:x} + {} bytes is outside SRAM", local, len);
  } else {
    // To SRAM: each PCI burst lands (and is heard) at its end.
    const PciDmaResult res =
        to_sram ? pci_dma_read(pci_, bus, sram_.data() + local, len,
                               [&](std::uint32_t off, const std::uint8_t* b, std::uint32_t n) { sram_.write(local + off, b, n, SramWriter::kHostDma); })
                : pci_dma(pci_, bus, const_cast<std::uint8_t*>(sram_.data() + local), len, true);  // to_bus: only reads `local`
    if (res.ok()) return 0;
    why = pci_.map().describe(res.status, res.addr, res.len, !to_sram);
  }
  last_error_ = std::move(why);
  log::warn("{}: descriptor {} failed (kHdmaErrBit): {}", name(), tail_, last_error_);
  return r::kHdmaErrBit;
}

void HostDma::run() {
  while (true) {
    while (head_ == tail_ || size_ == 0) wait(kick_);
    busy_ = true;
    const Time start = now_ps();
    const std::uint32_t idx = tail_ % size_;
    const std::uint64_t da = std::uint64_t{ring_} + std::uint64_t{idx} * 16;
    std::uint32_t ctrl_bits = 0;
    std::uint32_t local = 0, len = 0;
    std::uint64_t host = 0;
    bool to_sram = false;
    if (da + 16 > sram_.size()) {
      ctrl_bits = r::kHdmaErrBit;  // the ring itself is outside SRAM: nothing to write back
    } else {
      const std::uint8_t* d = sram_.data() + da;
      local = get_be32(d);
      host = get_be32(d + 4);
      len = get_be32(d + 8);
      to_sram = get_be32(d + 12) & r::kHdmaToSram;
      len_sig_.change(start, len);
      state_sig_.change(start, 1);
      wait(sc_core::sc_time::from_value(setup_));
      ctrl_bits = transfer(local, host, len, to_sram);
      if (ctrl_bits) ++stats_.errors;
      else if (to_sram) stats_.bytes_to_sram += len;
      else stats_.bytes_to_host += len;
      const auto c = static_cast<std::uint32_t>(da + 12);
      sram_.put32(c, get_be32(sram_.data() + c) | r::kHdmaDoneBit | ctrl_bits, SramWriter::kHostDma);
    }
    ++stats_.descriptors;
    const Time end = now_ps();
    stats_.busy += end - start;
    if (observer_) observer_(idx, local, host, len, to_sram, start, end);
    ++tail_;
    busy_ = false;
    state_sig_.change(end, 0);
    raise_(r::kIrqHdmaDone);
  }
}

}  // namespace sanvp::nic
