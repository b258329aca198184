#include "hw/nic/sys_regs.hpp"

#include "hw/base/endian.hpp"
#include "hw/nic/memory_map.hpp"

namespace sanvp::nic {

SysRegs::SysRegs(sc_core::sc_module_name name, Time latency) : sc_module(name), socket("socket"), latency_(latency) {
  socket.register_b_transport(this, &SysRegs::b_transport);
}

void SysRegs::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const std::uint64_t off = p.get_address();
  unsigned char* data = p.get_data_ptr();
  if (p.get_data_length() != 4 || (off & 3) != 0) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  delay += sc_core::sc_time(static_cast<double>(latency_), sc_core::SC_PS);
  access_time_ = static_cast<Time>((sc_core::sc_time_stamp() + delay).value());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  bool known;
  if (p.is_read()) {
    std::uint32_t v = 0;
    known = bank_.reg_read(static_cast<std::uint32_t>(off), v);
    if (known) put_be32(data, v);
  } else {
    known = bank_.reg_write(static_cast<std::uint32_t>(off), get_be32(data));
  }
  if (!known) p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

const RegisterMap<SysRegs> SysRegs::kRegisters{"sys", map::kSysBase, {
    {map::kConsoleTx, "CONSOLE_TX", Access::W, 0, "the low byte is written to the console",
     nullptr,
     [](SysRegs& m, std::uint32_t v) {
       const char c = static_cast<char>(v & 0xFF);
       if (m.on_console) m.on_console(c);
       else m.console_.push_back(c);
     }},
    {map::kConsoleStatus, "CONSOLE_STATUS", Access::R, 1, "bit 0: transmitter ready (always 1)",
     [](SysRegs&) { return 1u; }},
    {map::kExit, "EXIT", Access::W, 0, "ends the firmware's run with this exit code",
     nullptr, [](SysRegs& m, std::uint32_t v) { if (m.on_exit) m.on_exit(v, m.access_time_); }},
    {map::kTimeLo, "TIME_LO", Access::R, 0, "simulated time in ns, low word (latches TIME_HI)",
     [](SysRegs& m) {
       const std::uint64_t ns = m.access_time_ / 1000;
       m.time_hi_latch_ = static_cast<std::uint32_t>(ns >> 32);
       return static_cast<std::uint32_t>(ns);
     }},
    {map::kTimeHi, "TIME_HI", Access::R, 0, "simulated time in ns, high word latched by the last TIME_LO read",
     [](SysRegs& m) { return m.time_hi_latch_; }},
    {map::kScratch, "SCRATCH", Access::RW, 0, "a plain register for MMIO tests",
     [](SysRegs& m) { return m.scratch_; }, [](SysRegs& m, std::uint32_t v) { m.scratch_ = v; }},
}};

}  // namespace sanvp::nic
