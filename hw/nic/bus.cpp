#include "hw/nic/bus.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::nic {

Bus::Bus(sc_core::sc_module_name name) : sc_module(name), from_initiators("from_initiators"), to_targets("to_targets") {
  from_initiators.register_b_transport(this, &Bus::b_transport);
  from_initiators.register_get_direct_mem_ptr(this, &Bus::get_direct_mem_ptr);
  from_initiators.register_transport_dbg(this, &Bus::transport_dbg);
  to_targets.register_invalidate_direct_mem_ptr(this, &Bus::invalidate_direct_mem_ptr);
}

void Bus::check_overlap(std::uint64_t base, std::uint64_t size, const std::string& what) const {
  for (const auto& r : ranges_)
    if (base < r.base + r.size && r.base < base + size)
      throw UserError(fmt::format("{}: '{}' at 0x{:x}+0x{:x} overlaps '{}' at 0x{:x}+0x{:x}", name(), what, base, size, r.what, r.base, r.size));
}

int Bus::route(std::uint64_t addr, unsigned len) const {
  for (std::size_t i = 0; i < ranges_.size(); ++i)
    if (addr >= ranges_[i].base && addr + len <= ranges_[i].base + ranges_[i].size) return static_cast<int>(i);
  return -1;
}

void Bus::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const std::uint64_t addr = p.get_address();
  const int t = route(addr, p.get_data_length());
  if (t < 0) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  p.set_address(addr - ranges_[t].base);
  to_targets[t]->b_transport(p, delay);
  p.set_address(addr);
}

bool Bus::get_direct_mem_ptr(int, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  const std::uint64_t addr = p.get_address();
  const int t = route(addr, 1);
  if (t < 0) return false;
  p.set_address(addr - ranges_[t].base);
  const bool ok = to_targets[t]->get_direct_mem_ptr(p, dmi);
  p.set_address(addr);
  if (ok) {
    const std::uint64_t base = ranges_[t].base;
    dmi.set_start_address(dmi.get_start_address() + base);
    dmi.set_end_address(std::min<std::uint64_t>(dmi.get_end_address() + base, base + ranges_[t].size - 1));
  }
  return ok;
}

unsigned Bus::transport_dbg(int, tlm::tlm_generic_payload& p) {
  const std::uint64_t addr = p.get_address();
  const int t = route(addr, 1);
  if (t < 0) return 0;
  p.set_address(addr - ranges_[t].base);
  const unsigned n = to_targets[t]->transport_dbg(p);
  p.set_address(addr);
  return n;
}

void Bus::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  const std::uint64_t base = ranges_[static_cast<std::size_t>(id)].base;
  for (unsigned i = 0; i < from_initiators.size(); ++i)
    from_initiators[i]->invalidate_direct_mem_ptr(start + base, end + base);
}

}  // namespace sanvp::nic
