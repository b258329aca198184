#include "hw/nic/nic_regs.hpp"
#include "hw/base/sim_time.hpp"

#include "hw/nic/memory_map.hpp"

namespace sanvp::nic {

namespace r = map::nic;

NicRegs::NicRegs(sc_core::sc_module_name name, Time latency, Oscillator& osc, std::uint32_t node_id)
    : sc_module(name), socket("socket"), latency_(latency), osc_(osc), node_id_(node_id) {
  socket.register_b_transport(this, &NicRegs::b_transport);
  SC_METHOD(timer0_fired);
  sensitive << timers_[0].ev;
  dont_initialize();
  SC_METHOD(timer1_fired);
  sensitive << timers_[1].ev;
  dont_initialize();
}

void NicRegs::declare_traces() {
  const std::string path = name();
  isr_sig_.declare(path, "isr", 32);
  sleep_sig_.declare(path, "sleep", 1);
  pc_sig_.declare(path, "pc", 32);
  rtc_sig_.declare(path, "rtc", 64);
}

void NicRegs::trace_isr() {
  isr_sig_.change(now_ps(), isr_);
}

void NicRegs::raise(std::uint32_t bits) {
  isr_ |= bits;
  trace_isr();
  if (isr_ & imr_) irq_ev_.notify(sc_core::SC_ZERO_TIME);
}

void NicRegs::host_doorbell(std::uint32_t value) {
  doorbell_ = value;
  raise(r::kIrqDoorbell);
}

void NicRegs::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const std::uint64_t off = p.get_address();
  unsigned char* data = p.get_data_ptr();
  if (p.get_data_length() != 4 || (off & 3) != 0 || p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  // Catch up with the core's local time: hardware state is exact at the access instant.
  delay += sc_core::sc_time(static_cast<double>(latency_), sc_core::SC_PS);
  if (delay != sc_core::SC_ZERO_TIME) wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  const Time now = now_ps();
  ++stats_.accesses;
  if (pc_sig_.on() && current_pc) pc_sig_.change(now, current_pc());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  const auto o = static_cast<std::uint32_t>(off);
  if (p.is_read()) {
    std::uint32_t v = 0;
    if (o == r::kWait) {
      ++stats_.waits;
      if (!(isr_ & imr_)) {
        ++stats_.sleeps;
        sleeping_ = true;
        sleep_sig_.change(now, 1);
        while (!(isr_ & imr_)) wait(irq_ev_);
        sleeping_ = false;
        const Time woke = now_ps();
        stats_.slept += woke - now;
        sleep_sig_.change(woke, 0);
        if (pc_sig_.on() && current_pc) pc_sig_.change(woke, current_pc());
      }
      v = isr_ & imr_;
    } else {
      bool found = false;
      if (o >= 0x040) {
        for (RegisterWindow* w : windows_)
          if (w->reg_read(o, v)) { found = true; break; }
      } else {
        found = true;
        v = read(o, now);
      }
      if (!found) { p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return; }
    }
    put_be32(data, v);
    return;
  }
  const std::uint32_t v = get_be32(data);
  bool found = false;
  if (o >= 0x040) {
    for (RegisterWindow* w : windows_)
      if (w->reg_write(o, v)) { found = true; break; }
  } else {
    found = true;
    write(o, v, now);
  }
  if (!found) p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

std::uint32_t NicRegs::read(std::uint32_t off, Time now) {
  switch (off) {
    case r::kIsr: return isr_;
    case r::kImr: return imr_;
    case r::kRtcLo: {
      const std::uint64_t v = rtc(now);
      rtc_sig_.change(now, v);
      rtc_hi_latch_ = static_cast<std::uint32_t>(v >> 32);
      return static_cast<std::uint32_t>(v);
    }
    case r::kRtcHi: return rtc_hi_latch_;
    case r::kRtcFreq: return static_cast<std::uint32_t>(osc_.nominal_hz() / 1000);
    case r::kTimer0:
    case r::kTimer1: {
      const Timer& t = timers_[off == r::kTimer0 ? 0 : 1];
      if (!t.armed) return 0;
      const std::uint64_t now_t = osc_.ticks(now);
      return t.expiry_tick > now_t ? static_cast<std::uint32_t>(t.expiry_tick - now_t) : 0;
    }
    case r::kDoorbell: return doorbell_;
    case r::kNodeId: return node_id_;
    case r::kMailbox: return mailbox_;
    default: return 0;  // write-only registers (ISR_SET, HOST_IRQ) read as 0
  }
}

void NicRegs::write(std::uint32_t off, std::uint32_t v, Time now) {
  switch (off) {
    case r::kIsr: isr_ &= ~v; trace_isr(); return;
    case r::kImr:
      imr_ = v;
      if (isr_ & imr_) irq_ev_.notify(sc_core::SC_ZERO_TIME);
      return;
    case r::kIsrSet: raise(v); return;
    case r::kRtcLo: {
      const std::uint64_t value = (std::uint64_t{rtc_hi_stage_} << 32) | v;
      rtc_offset_ = value - osc_.ticks(now);
      rtc_sig_.change(now, value);
      return;
    }
    case r::kRtcHi: rtc_hi_stage_ = v; return;
    case r::kTimer0: arm_timer(0, v, now); return;
    case r::kTimer1: arm_timer(1, v, now); return;
    case r::kHostIrq:
      if (on_host_irq) on_host_irq(v);
      return;
    case r::kMailbox: mailbox_ = v; return;
    default: return;  // read-only registers ignore writes
  }
}

void NicRegs::arm_timer(int i, std::uint32_t ticks, Time now) {
  Timer& t = timers_[i];
  t.ev.cancel();
  t.armed = ticks != 0;
  if (!t.armed) return;
  // Expires when the oscillator has completed `ticks` more whole ticks.
  t.expiry_tick = osc_.ticks(now) + ticks;
  const Time at = osc_.time_of_tick(t.expiry_tick);
  if (on_timer_armed) on_timer_armed(i, now, at, ticks);
  t.ev.notify(sc_core::sc_time::from_value(at - now));
}

void NicRegs::timer_fired(int i) {
  Timer& t = timers_[i];
  if (!t.armed) return;
  t.armed = false;
  raise(i == 0 ? r::kIrqTimer0 : r::kIrqTimer1);
}

}  // namespace sanvp::nic
