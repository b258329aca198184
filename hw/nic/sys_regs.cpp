#include "hw/nic/sys_regs.hpp"

#include "hw/base/endian.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/refusal.hpp"

namespace sanvp::nic {

SysRegs::SysRegs(sc_core::sc_module_name name, const SysRegsParams& p) : sc_module(name), socket("socket"), params_(p) {
  socket.register_b_transport(this, &SysRegs::b_transport);
}

void SysRegs::declare_traces() {
  probe_tag_sig_.declare(name(), "probe_tag", 32);
  probe_value_sig_.declare(name(), "probe_value", 32);
}

void SysRegs::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const std::uint64_t off = p.get_address();
  unsigned char* data = p.get_data_ptr();
  if (p.get_data_length() != 4 || (off & 3) != 0) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  delay += sc_core::sc_time(static_cast<double>(params_.latency), sc_core::SC_PS);
  access_time_ = static_cast<Time>((sc_core::sc_time_stamp() + delay).value());
  // Global time is for probes: with time_access off, a read of TIME_LO/TIME_HI is a bus error
  // (the firmware fault report names the address; docs/nic.md the reason).
  if (!params_.time_access && p.is_read() && (off == map::kTimeLo || off == map::kTimeHi)) {
    refuse(p, refusal_, "global simulated time is not readable by this firmware (nic.sys.time_access = false): "
                        "keep time with the RTC and timers, measure with probes");
    return;
  }
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
    {map::kProbeTag, "PROBE_TAG", Access::RW, 0, "tag of the next probe (kept until written again)",
     [](SysRegs& m) { return m.probe_tag_; }, [](SysRegs& m, std::uint32_t v) { m.probe_tag_ = v; }},
    {map::kProbeValue, "PROBE_VALUE", Access::W, 0,
     "records a probe: global time of this store, node, RTC, PROBE_TAG and this value (measurement only)",
     nullptr,
     [](SysRegs& m, std::uint32_t v) {
       m.probe_tag_sig_.change(m.access_time_, m.probe_tag_);
       m.probe_value_sig_.change(m.access_time_, v);
       if (m.on_probe) m.on_probe(m.probe_tag_, v, m.access_time_);
     }},
}};

}  // namespace sanvp::nic
