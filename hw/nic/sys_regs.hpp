// System registers of the bare firmware platform (memory_map.hpp, kSysBase): console
// transmitter, exit register and a simulated-time counter. The exit register calls back into
// whoever owns the simulation (the core stops at the end of the storing instruction).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sys_regs_params.hpp"

namespace sanvp::nic {

class SysRegs : public sc_core::sc_module {
 public:

  tlm_utils::simple_target_socket<SysRegs> socket;

  SysRegs(sc_core::sc_module_name name, Time latency);
  static const RegisterMap<SysRegs> kRegisters;  // CONSOLE_TX .. SCRATCH (sys_regs.cpp)
  RegisterWindow& registers() { return bank_; }  // without latency (tests); times read as of the last bus access

  // Console bytes go here (default: appended to console_text()).
  std::function<void(char)> on_console;
  // Called on a write to the exit register with the code and the time of the write.
  std::function<void(std::uint32_t code, Time when)> on_exit;
  const std::string& console_text() const { return console_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  Time latency_;
  std::string console_;
  std::uint32_t time_hi_latch_ = 0;
  std::uint32_t scratch_ = 0;
  Time access_time_ = 0;  // of the access being decoded (the core's local time: no wait here)
  RegisterBank<SysRegs> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
