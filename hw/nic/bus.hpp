// NIC-internal bus: routes TLM-2.0 transactions from initiators (the core now; DMA engines
// in the NIC issue) to targets by address range, translating to target-local offsets, and
// forwards DMI requests and invalidations with the same translation. Accesses that hit no
// target complete with TLM_ADDRESS_ERROR_RESPONSE.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

namespace sanvp::nic {

class Bus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Bus> from_initiators;
  tlm_utils::multi_passthrough_initiator_socket<Bus> to_targets;

  explicit Bus(sc_core::sc_module_name name);

  // Binds `target` at [base, base + size). Call in elaboration, in any order; ranges must not overlap.
  template <class TargetSocket>
  void map(TargetSocket& target, std::uint64_t base, std::uint64_t size, std::string what) {
    check_overlap(base, size, what);
    ranges_.push_back({base, size, std::move(what)});
    to_targets.bind(target);
  }

 private:
  struct Range { std::uint64_t base, size; std::string what; };
  int route(std::uint64_t addr, unsigned len) const;
  void check_overlap(std::uint64_t base, std::uint64_t size, const std::string& what) const;
  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& p);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);

  std::vector<Range> ranges_;
};

}  // namespace sanvp::nic
