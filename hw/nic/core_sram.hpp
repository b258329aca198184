// Wires a LanaiCore to the SRAM it runs from: the core hears of other initiators' writes to its
// code (and of all writes while a debugger is attached), so it can drop stale predecoded blocks
// without checking memory, and watchpoints see DMA and PCI writes.
#pragma once
#include "hw/nic/core.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/sram.hpp"

namespace sanvp::nic {

inline void connect_core_to_sram(LanaiCore& core, Sram& sram) {
  const LanaiCore::Program& p = core.program();
  // SRAM offsets of the code (clipped to the SRAM: the core faults on fetches outside it anyway).
  const std::uint32_t lo = std::min(p.code_lo - map::kSramBase, sram.size());
  const std::uint32_t hi = std::min(p.code_hi - map::kSramBase, sram.size());
  const int h = sram.listen(lo, hi, [&core](const SramWrite& w) {
    SramWrite c = w;
    c.addr += map::kSramBase;
    core.memory_written(c);
  });
  core.hear_all = [&sram, h, lo, hi](bool all) { all ? sram.set_listen_range(h, 0, sram.size()) : sram.set_listen_range(h, lo, hi); };
}

}  // namespace sanvp::nic
