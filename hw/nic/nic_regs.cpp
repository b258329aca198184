#include "hw/nic/nic_regs.hpp"
#include "hw/base/sim_time.hpp"
#include <algorithm>

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
    {r::kRtcHi, "RTC_HI", Access::RW, 0, "read: the high word latched by the last RTC_LO read; write: stages the high word for the next RTC_LO, TIMER0_AT or TIMER1_AT write",
     [](NicRegs& m) { return m.rtc_hi_latch_; }, [](NicRegs& m, std::uint32_t v) { m.rtc_hi_stage_ = v; }},
    {r::kRtcFreq, "RTC_FREQ", Access::R, 0, "nominal oscillator frequency in kHz",
     [](NicRegs& m) { return static_cast<std::uint32_t>(m.osc_.nominal_hz() / 1000); }, nullptr, "nic.osc.freq in kHz"},
    {r::kRtcAdj, "RTC_ADJ", Access::W, 0, "adds this signed 32-bit number of ticks to the RTC at the write instant; armed timers and timed sends keep their RTC deadlines",
     nullptr, [](NicRegs& m, std::uint32_t v) { m.adjust_rtc(v); }},
    {r::kTimer0, "TIMER0", Access::RW, 0, "interval timer 0: a write arms it to expire after N ticks (0 disarms), raising kIrqTimer0; read: ticks left",
     [](NicRegs& m) { return m.timer_left(0); }, [](NicRegs& m, std::uint32_t v) { m.arm_timer(0, v, now_ps()); }},
    {r::kTimer1, "TIMER1", Access::RW, 0, "interval timer 1, as TIMER0 (kIrqTimer1)",
     [](NicRegs& m) { return m.timer_left(1); }, [](NicRegs& m, std::uint32_t v) { m.arm_timer(1, v, now_ps()); }},
    {r::kTimer0At, "TIMER0_AT", Access::RW, 0, "arms timer 0 to expire when the RTC reaches (staged RTC_HI << 32) + value (at once if it has); read: low word of the deadline, 0 when disarmed",
     [](NicRegs& m) { return m.timer_deadline_lo(0); },
     [](NicRegs& m, std::uint32_t v) { m.arm_timer_at(0, (std::uint64_t{m.rtc_hi_stage_} << 32) | v, now_ps()); }},
    {r::kTimer1At, "TIMER1_AT", Access::RW, 0, "timer 1 at an RTC value, as TIMER0_AT",
     [](NicRegs& m) { return m.timer_deadline_lo(1); },
     [](NicRegs& m, std::uint32_t v) { m.arm_timer_at(1, (std::uint64_t{m.rtc_hi_stage_} << 32) | v, now_ps()); }},
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
  rtc_moved(now);
}

void NicRegs::adjust_rtc(std::uint32_t v) {
  const Time now = now_ps();
  rtc_offset_ += static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)));
  rtc_sig_.change(now, rtc(now));
  rtc_moved(now);
}

// Timers are RTC deadlines: after the RTC moved, each armed timer expires when the RTC, as now
// set, reaches its deadline (at once if it already has); timed sends re-evaluate likewise.
void NicRegs::rtc_moved(Time now) {
  for (int i = 0; i < 2; ++i)
    if (timers_[i].armed) schedule_timer(i, now);
  if (on_rtc_changed) on_rtc_changed();
}

Time NicRegs::rtc_instant(std::uint64_t v) {
  const Time now = now_ps();
  const std::uint64_t osc_now = osc_.ticks(now);
  const auto ahead = static_cast<std::int64_t>(v - (osc_now + rtc_offset_));
  if (ahead > 0) return osc_.time_of_tick(osc_now + static_cast<std::uint64_t>(ahead));
  // Already reached: the instant it was reached with the current setting (0 if never).
  const auto tick = static_cast<std::int64_t>(v - rtc_offset_);
  return tick <= 0 ? 0 : osc_.time_of_tick(static_cast<std::uint64_t>(tick));
}

std::uint32_t NicRegs::timer_left(int i) {
  const Timer& t = timers_[i];
  if (!t.armed) return 0;
  const std::uint64_t now_t = rtc(now_ps());
  return t.deadline > now_t ? static_cast<std::uint32_t>(t.deadline - now_t) : 0;
}

nlohmann::json NicRegs::stats_json() const {
  return {{"sleeps", stats_.sleeps}, {"slept_ps", stats_.slept}};
}

void NicRegs::arm_timer(int i, std::uint32_t ticks, Time now) {
  Timer& t = timers_[i];
  t.ev.cancel();
  t.armed = ticks != 0;
  if (!t.armed) return;
  // Expires when the oscillator has completed `ticks` more whole ticks: at RTC now + ticks.
  t.deadline = rtc(now) + ticks;
  const Time at = rtc_instant(t.deadline);
  if (on_timer_armed) on_timer_armed(i, now, at, ticks);
  if (rtc_sig_.on()) rtc_sig_.change(now, rtc(now));
  t.ev.notify(sc_core::sc_time::from_value(at - now));
}

void NicRegs::arm_timer_at(int i, std::uint64_t deadline, Time now) {
  Timer& t = timers_[i];
  t.armed = true;
  t.deadline = deadline;
  const std::uint64_t r = rtc(now);
  if (on_timer_armed) on_timer_armed(i, now, std::max(now, rtc_instant(deadline)), deadline > r ? static_cast<std::uint32_t>(deadline - r) : 0);
  if (rtc_sig_.on()) rtc_sig_.change(now, r);
  schedule_timer(i, now);
}

void NicRegs::schedule_timer(int i, Time now) {
  Timer& t = timers_[i];
  t.ev.cancel();
  const Time at = rtc_instant(t.deadline);
  if (at > now) t.ev.notify(sc_core::sc_time::from_value(at - now));
  else t.ev.notify(sc_core::SC_ZERO_TIME);  // the RTC is at or past the deadline: expires now
}

void NicRegs::timer_fired(int i) {
  Timer& t = timers_[i];
  if (!t.armed) return;
  const Time now = now_ps();
  if (rtc(now) < t.deadline) { schedule_timer(i, now); return; }  // defensive: the RTC moved back
  t.armed = false;
  if (rtc_sig_.on()) rtc_sig_.change(now, rtc(now));
  if (on_timer_fired) on_timer_fired(i, now);
  raise(i == 0 ? r::kIrqTimer0 : r::kIrqTimer1);
}

}  // namespace sanvp::nic
