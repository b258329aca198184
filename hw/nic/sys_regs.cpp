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
  const Time now = static_cast<Time>((sc_core::sc_time_stamp() + delay).value());
  auto put = [&](std::uint32_t v) {
    data[0] = static_cast<unsigned char>(v >> 24);
    data[1] = static_cast<unsigned char>(v >> 16);
    data[2] = static_cast<unsigned char>(v >> 8);
    data[3] = static_cast<unsigned char>(v);
  };
  const std::uint32_t wv = get_be32(data);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  if (p.is_read()) {
    switch (off) {
      case map::kConsoleStatus: put(1); return;
      case map::kTimeLo: {
        const std::uint64_t ns = now / 1000;
        time_hi_latch_ = static_cast<std::uint32_t>(ns >> 32);
        put(static_cast<std::uint32_t>(ns));
        return;
      }
      case map::kTimeHi: put(time_hi_latch_); return;
      case map::kScratch: put(scratch_); return;
      case map::kConsoleTx:
      case map::kExit: put(0); return;
      default: p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return;
    }
  }
  switch (off) {
    case map::kConsoleTx: {
      const char c = static_cast<char>(wv & 0xFF);
      if (on_console) on_console(c);
      else console_.push_back(c);
      return;
    }
    case map::kExit:
      if (on_exit) on_exit(wv, now);
      return;
    case map::kScratch: scratch_ = wv; return;
    case map::kConsoleStatus:
    case map::kTimeLo:
    case map::kTimeHi: return;  // read-only: writes ignored
    default: p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return;
  }
}

}  // namespace sanvp::nic
