// NIC SRAM: a TLM-2.0 target with DMI. Bytes are stored in memory order (big-endian words,
// as the Lanai core sees them); TLM payloads carry bytes in that same order.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/base/endian.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/nic/sram_params.hpp"
#include "hw/nic/sram_write.hpp"

namespace sanvp::nic {

class Sram : public sc_core::sc_module {
 public:

  tlm_utils::simple_target_socket<Sram> socket;

  Sram(sc_core::sc_module_name name, std::uint32_t size);

  std::uint32_t size() const { return size_; }
  // Read-only: every writer but the core's DMI stores goes through write/put8/put32 (and the TLM
  // interfaces), which tell the listeners.
  const std::uint8_t* data() const { return mem_.get(); }
  // Writes without simulated time of their own (`who` defaults to the loader: images, route
  // tables, tests); UserError past the end.
  void write(std::uint32_t offset, const std::uint8_t* src, std::uint32_t len, SramWriter who = SramWriter::kLoader);
  // Device writes (offset checked by the caller), noted at the current simulated time.
  void put8(std::uint32_t offset, std::uint8_t b, SramWriter who) {
    mem_[offset] = b;
    if (heard(offset, 1)) tell(SramWrite{who, offset, 1, now_ps()});
  }
  void put32(std::uint32_t offset, std::uint32_t v, SramWriter who) {
    put_be32(mem_.get() + offset, v);
    if (heard(offset, 4)) tell(SramWrite{who, offset, 4, now_ps()});
  }
  // Listeners hear of writes that touch [lo, hi) of theirs; a write nobody listens to costs a
  // range test. Returns a handle for set_listen_range.
  using Listener = std::function<void(const SramWrite&)>;
  int listen(std::uint32_t lo, std::uint32_t hi, Listener fn);
  void set_listen_range(int handle, std::uint32_t lo, std::uint32_t hi);
  std::uint32_t read32(std::uint32_t offset) const;
  void set_dmi_allowed(bool on) { dmi_allowed_ = on; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);
  bool heard(std::uint32_t off, std::uint32_t len) const { return off < hi_ && off + len > lo_; }
  void tell(const SramWrite& w);

  struct Sub {
    std::uint32_t lo, hi;
    Listener fn;
  };
  std::vector<Sub> subs_;
  std::uint32_t lo_ = 0, hi_ = 0;  // the union of the listeners' ranges (as one interval)

  // calloc'ed: pages are committed only when touched, so a 1024-NIC network does not hold
  // 1024 SRAMs in memory.
  struct Free { void operator()(std::uint8_t* p) const; };
  std::unique_ptr<std::uint8_t[], Free> mem_;
  std::uint32_t size_;
  bool dmi_allowed_ = true;
};

}  // namespace sanvp::nic
