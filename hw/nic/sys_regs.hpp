// System registers of the bare firmware platform (memory_map.hpp, kSysBase): console
// transmitter, exit register, a global simulated-time counter (refused when time_access is off:
// protocol firmware must use its NIC's own clock) and the probe registers (probe.hpp). The exit
// register calls back into whoever owns the simulation (the core stops at the end of the
// storing instruction).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"
#include "hw/base/trace.hpp"
#include "hw/nic/probe.hpp"
#include "hw/nic/refusal.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sys_regs_params.hpp"

namespace sanvp::nic {

class SysRegs : public sc_core::sc_module {
 public:

  tlm_utils::simple_target_socket<SysRegs> socket;

  SysRegs(sc_core::sc_module_name name, const SysRegsParams& p);
  static const RegisterMap<SysRegs> kRegisters;  // CONSOLE_TX .. PROBE_VALUE (sys_regs.cpp)
  RegisterWindow& registers() { return bank_; }  // without latency (tests); times read as of the last bus access

  // Console bytes go here (default: appended to console_text()).
  std::function<void(char)> on_console;
  // Called on a write to the exit register with the code and the time of the write.
  std::function<void(std::uint32_t code, Time when)> on_exit;
  const std::string& console_text() const { return console_; }
  // Called on a write to PROBE_VALUE with the staged tag, the value and the time of the write.
  std::function<void(std::uint32_t tag, std::uint32_t value, Time when)> on_probe;
  void declare_traces();  // probe_tag, probe_value

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  SysRegsParams params_;
  std::string console_;
  std::uint32_t probe_tag_ = 0;
  Refusal refusal_;  // attached to refused accesses (refusal.hpp)
  TraceSignal probe_tag_sig_, probe_value_sig_;
  std::uint32_t time_hi_latch_ = 0;
  std::uint32_t scratch_ = 0;
  Time access_time_ = 0;  // of the access being decoded (the core's local time: no wait here)
  RegisterBank<SysRegs> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
