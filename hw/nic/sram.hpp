// NIC SRAM: a TLM-2.0 target with DMI. Bytes are stored in memory order (big-endian words,
// as the Lanai core sees them); TLM payloads carry bytes in that same order.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/nic/sram_params.hpp"

namespace sanvp::nic {

class Sram : public sc_core::sc_module {
 public:

  tlm_utils::simple_target_socket<Sram> socket;

  Sram(sc_core::sc_module_name name, std::uint32_t size);

  std::uint32_t size() const { return size_; }
  std::uint8_t* data() { return mem_.get(); }
  // Backdoor for loaders and tests (no simulated time).
  void write(std::uint32_t offset, const std::uint8_t* src, std::uint32_t len);
  std::uint32_t read32(std::uint32_t offset) const;
  void set_dmi_allowed(bool on) { dmi_allowed_ = on; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);

  // calloc'ed: pages are committed only when touched, so a 1024-NIC network does not hold
  // 1024 SRAMs in memory.
  struct Free { void operator()(std::uint8_t* p) const; };
  std::unique_ptr<std::uint8_t[], Free> mem_;
  std::uint32_t size_;
  bool dmi_allowed_ = true;
};

}  // namespace sanvp::nic
