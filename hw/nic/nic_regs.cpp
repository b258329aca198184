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
    if (!decode_read(o, v)) { p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return; }
    put_be32(data, v);
    return;
  }
  if (!decode_write(o, get_be32(data))) p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// This block first (0x000..0x03F, unused offsets read as 0), then the engines' windows.
bool NicRegs::decode_read(std::uint32_t off, std::uint32_t& v) {
  if (bank_.reg_read(off, v)) return true;
  for (RegisterWindow* w : windows_)
    if (w->reg_read(off, v)) return true;
  return false;
}

bool NicRegs::decode_write(std::uint32_t off, std::uint32_t v) {
  if (bank_.reg_write(off, v)) return true;
  for (RegisterWindow* w : windows_)
    if (w->reg_write(off, v)) return true;
  return false;
}

const RegisterMap<NicRegs> NicRegs::kRegisters{"regs", map::kNicRegBase, {
    {r::kIsr, "ISR", Access::W1C, 0, "interrupt status (the kIrq bits of memory_map.hpp); write 1 to clear",
     [](NicRegs& m) { return m.isr_; }, [](NicRegs& m, std::uint32_t v) { m.isr_ &= ~v; m.trace_isr(); }},
    {r::kImr, "IMR", Access::RW, 0, "interrupt mask: which ISR bits wake WAIT",
     [](NicRegs& m) { return m.imr_; },
     [](NicRegs& m, std::uint32_t v) {
       m.imr_ = v;
       if (m.isr_ & m.imr_) m.irq_ev_.notify(sc_core::SC_ZERO_TIME);
     }},
    {r::kWait, "WAIT", Access::R, 0, "sleeps until ISR & IMR != 0, returns ISR & IMR",
     [](NicRegs& m) { return m.wait_for_event(); }},
    {r::kIsrSet, "ISR_SET", Access::W, 0, "sets ISR bits (software events)",
     nullptr, [](NicRegs& m, std::uint32_t v) { m.raise(v); }},
    {r::kRtcLo, "RTC_LO", Access::RW, 0, "real-time clock in oscillator ticks, low word; a read latches RTC_HI, a write sets the clock to (staged high word << 32) + value",
     [](NicRegs& m) { return m.read_rtc_lo(); }, [](NicRegs& m, std::uint32_t v) { m.write_rtc_lo(v); }},
    {r::kRtcHi, "RTC_HI", Access::RW, 0, "read: the high word latched by the last RTC_LO read; write: stages the high word for the next RTC_LO write",
     [](NicRegs& m) { return m.rtc_hi_latch_; }, [](NicRegs& m, std::uint32_t v) { m.rtc_hi_stage_ = v; }},
    {r::kRtcFreq, "RTC_FREQ", Access::R, 0, "nominal oscillator frequency in kHz",
     [](NicRegs& m) { return static_cast<std::uint32_t>(m.osc_.nominal_hz() / 1000); }, nullptr, "nic.osc.freq in kHz"},
    {r::kTimer0, "TIMER0", Access::RW, 0, "interval timer 0: a write arms it to expire after N ticks (0 disarms), raising kIrqTimer0; read: ticks left",
     [](NicRegs& m) { return m.timer_left(0); }, [](NicRegs& m, std::uint32_t v) { m.arm_timer(0, v, now_ps()); }},
    {r::kTimer1, "TIMER1", Access::RW, 0, "interval timer 1, as TIMER0 (kIrqTimer1)",
     [](NicRegs& m) { return m.timer_left(1); }, [](NicRegs& m, std::uint32_t v) { m.arm_timer(1, v, now_ps()); }},
    {r::kDoorbell, "DOORBELL", Access::R, 0, "last value the host wrote here (the host's write raises kIrqDoorbell)",
     [](NicRegs& m) { return m.doorbell_; }},
    {r::kHostIrq, "HOST_IRQ", Access::W, 0, "interrupts the host with this value",
     nullptr, [](NicRegs& m, std::uint32_t v) { if (m.on_host_irq) m.on_host_irq(v); }},
    {r::kNodeId, "NODE_ID", Access::R, 0, "this NIC's node id in the network",
     [](NicRegs& m) { return m.node_id_; }, nullptr, "node id"},
    {r::kMailbox, "MAILBOX", Access::RW, 0, "a word the host reads by PIO (firmware publishes its host-interface address here)",
     [](NicRegs& m) { return m.mailbox_; }, [](NicRegs& m, std::uint32_t v) { m.mailbox_ = v; }},
}, 0x000, 0x040};

std::uint32_t NicRegs::wait_for_event() {
  const Time now = now_ps();
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
  return isr_ & imr_;
}

std::uint32_t NicRegs::read_rtc_lo() {
  const Time now = now_ps();
  const std::uint64_t v = rtc(now);
  rtc_sig_.change(now, v);
  rtc_hi_latch_ = static_cast<std::uint32_t>(v >> 32);
  return static_cast<std::uint32_t>(v);
}

void NicRegs::write_rtc_lo(std::uint32_t v) {
  const Time now = now_ps();
  const std::uint64_t value = (std::uint64_t{rtc_hi_stage_} << 32) | v;
  rtc_offset_ = value - osc_.ticks(now);
  rtc_sig_.change(now, value);
}

std::uint32_t NicRegs::timer_left(int i) {
  const Timer& t = timers_[i];
  if (!t.armed) return 0;
  const std::uint64_t now_t = osc_.ticks(now_ps());
  return t.expiry_tick > now_t ? static_cast<std::uint32_t>(t.expiry_tick - now_t) : 0;
}

nlohmann::json NicRegs::stats_json() const {
  return {{"sleeps", stats_.sleeps}, {"slept_ps", stats_.slept}};
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
