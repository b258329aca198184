#include "hw/nic/sram.hpp"
#include "hw/base/endian.hpp"

#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <new>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::nic {

void Sram::Free::operator()(std::uint8_t* p) const { std::free(p); }

Sram::Sram(sc_core::sc_module_name name, std::uint32_t size)
    : sc_module(name), socket("socket"), mem_(static_cast<std::uint8_t*>(std::calloc(size ? size : 1, 1))), size_(size) {
  if (!mem_) throw std::bad_alloc();
  socket.register_b_transport(this, &Sram::b_transport);
  socket.register_get_direct_mem_ptr(this, &Sram::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &Sram::transport_dbg);
}

void Sram::write(std::uint32_t offset, const std::uint8_t* src, std::uint32_t len, SramWriter who) {
  if (std::uint64_t{offset} + len > std::uint64_t{size_})
    throw UserError(fmt::format("{}: write of {} bytes at 0x{:x} exceeds the SRAM size 0x{:x}", name(), len, offset, std::uint64_t{size_}));
  if (!len) return;
  std::memcpy(mem_.get() + offset, src, len);
  if (heard(offset, len)) tell(SramWrite{who, offset, len, now_ps()});
}

int Sram::listen(std::uint32_t lo, std::uint32_t hi, Listener fn) {
  subs_.push_back(Sub{0, 0, std::move(fn)});
  set_listen_range(static_cast<int>(subs_.size() - 1), lo, hi);
  return static_cast<int>(subs_.size() - 1);
}

void Sram::set_listen_range(int handle, std::uint32_t lo, std::uint32_t hi) {
  subs_.at(static_cast<std::size_t>(handle)).lo = lo;
  subs_[static_cast<std::size_t>(handle)].hi = hi;
  lo_ = hi_ = 0;
  for (const Sub& s : subs_) {
    if (s.lo >= s.hi) continue;
    if (lo_ >= hi_) lo_ = s.lo, hi_ = s.hi;
    lo_ = std::min(lo_, s.lo);
    hi_ = std::max(hi_, s.hi);
  }
}

void Sram::tell(const SramWrite& w) {
  // By index: a listener stopped at a watchpoint may add a listener.
  for (std::size_t i = 0; i < subs_.size(); ++i)
    if (w.addr < subs_[i].hi && w.addr + w.len > subs_[i].lo) subs_[i].fn(w);
}

std::uint32_t Sram::read32(std::uint32_t offset) const {
  const std::uint8_t* p = mem_.get() + offset;
  return get_be32(p);
}

// Memory timing is part of the core's per-instruction cycle model, so a transported access
// costs no extra time here: DMI and b_transport give the same simulated time.
void Sram::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const std::uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  if (addr + len > std::uint64_t{size_} || p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(addr + len > std::uint64_t{size_} ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (p.is_read()) {
    std::memcpy(p.get_data_ptr(), mem_.get() + addr, len);
  } else if (p.is_write()) {
    std::memcpy(mem_.get() + addr, p.get_data_ptr(), len);
    // Lands at the initiator's local time (the core runs ahead of SystemC time).
    if (heard(static_cast<std::uint32_t>(addr), len))
      tell(SramWrite{SramWriter::kBus, static_cast<std::uint32_t>(addr), len, now_ps() + static_cast<Time>(delay.value())});
  }
  p.set_dmi_allowed(dmi_allowed_);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Sram::get_direct_mem_ptr(tlm::tlm_generic_payload& /*p*/, tlm::tlm_dmi& dmi) {
  if (!dmi_allowed_) return false;
  dmi.set_dmi_ptr(mem_.get());
  dmi.set_start_address(0);
  dmi.set_end_address(std::uint64_t{size_} - 1);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(sc_core::SC_ZERO_TIME);
  dmi.set_write_latency(sc_core::SC_ZERO_TIME);
  return true;
}

unsigned Sram::transport_dbg(tlm::tlm_generic_payload& p) {
  const std::uint64_t addr = p.get_address();
  if (addr >= std::uint64_t{size_}) return 0;
  const unsigned len = static_cast<unsigned>(std::min<std::uint64_t>(p.get_data_length(), std::uint64_t{size_} - addr));
  if (p.is_read()) {
    std::memcpy(p.get_data_ptr(), mem_.get() + addr, len);
  } else {
    std::memcpy(mem_.get() + addr, p.get_data_ptr(), len);
    if (len && heard(static_cast<std::uint32_t>(addr), len)) tell(SramWrite{SramWriter::kDebugger, static_cast<std::uint32_t>(addr), len, now_ps()});
  }
  return len;
}

}  // namespace sanvp::nic
