// The bare firmware platform behind `sanvp fw run`: a LANai core, its SRAM and the system
// registers (console, exit, time) on the NIC bus, with the image loaded into SRAM.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/nic/bus.hpp"
#include "hw/nic/core.hpp"
#include "hw/nic/sram.hpp"
#include "hw/nic/sys_regs.hpp"
#include "hw/base/params.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::fw {

class FwPlatform : public sc_core::sc_module {
 public:
  FwPlatform(sc_core::sc_module_name name, ParamValues& pv, const Image& image, std::ostream* console);

  nic::Bus bus;
  std::unique_ptr<nic::Sram> sram;
  std::unique_ptr<nic::SysRegs> sys;
  std::unique_ptr<nic::LanaiCore> core;
};

// "sym", "sym1,0x100-0x200" -> pc ranges [lo, hi). Throws UserError for unknown symbols.
std::vector<std::pair<std::uint32_t, std::uint32_t>> parse_pc_filter(const std::string& spec, const Image& image);

nic::LanaiCore::Program program_of(const Image& image);

// Copies the image's segments into `sram` in order (zero-fill segments are left as the SRAM
// is); returns the first segment that does not fit it, copying nothing from there on, or nullptr.
const Segment* load_segments(nic::Sram& sram, const Image& image);

}  // namespace sanvp::fw
