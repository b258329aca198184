// NicRegs: the NIC's register block (memory_map.hpp, namespace map::nic) as a TLM-2.0 target:
// interrupt status and mask, the wait-for-event register that puts the core to sleep, the
// real-time clock and interval timers driven by the NIC's own Oscillator, and the host
// interface words (doorbell, host interrupt, node id, mailbox). The DMA engines' register
// windows are forwarded to them.
//
// Every access first brings SystemC time up to the core's local time (the core runs ahead by
// up to a quantum), so firmware sees hardware state exactly at the instant of its access.
// The block's registers are declared once in nic_regs.cpp (kRegisters, hw/nic/register.hpp).
// A read of WAIT with nothing pending blocks inside b_transport until an enabled event: a
// sleeping core executes no instructions and costs no simulation events.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "hw/nic/irq.hpp"
#include "hw/nic/oscillator.hpp"
#include "hw/nic/register.hpp"
#include "hw/base/params.hpp"
#include "hw/base/trace.hpp"
#include "hw/nic/nic_regs_params.hpp"

namespace sanvp::nic {

class NicRegs : public sc_core::sc_module {
 public:

  struct Stats {
    std::uint64_t accesses = 0, waits = 0, sleeps = 0;
    Time slept = 0;  // total time the core spent asleep in WAIT
  };

  tlm_utils::simple_target_socket<NicRegs> socket;

  SC_HAS_PROCESS(NicRegs);
  NicRegs(sc_core::sc_module_name name, Time latency, Oscillator& osc, std::uint32_t node_id);

  static const RegisterMap<NicRegs> kRegisters;  // ISR .. MAILBOX (nic_regs.cpp)
  // This block's registers alone, without the access latency, time catch-up and statistics of
  // a bus access (tests; reading WAIT sleeps as from the bus).
  RegisterWindow& registers() { return bank_; }
  void add_window(RegisterWindow* w) { windows_.push_back(w); }
  // Engines and the host set status bits at the current simulated time.
  void raise(std::uint32_t bits);
  std::uint32_t isr() const { return isr_; }
  std::uint32_t imr() const { return imr_; }
  bool sleeping() const { return sleeping_; }

  // Host side (PIO through the PCI bus model, at the current simulated time).
  void host_doorbell(std::uint32_t value);
  std::uint32_t mailbox() const { return mailbox_; }
  std::function<void(std::uint32_t)> on_host_irq;
  // Called on every access with the core's pc (for the VCD's sampled pc).
  std::function<std::uint32_t()> current_pc;

  std::uint64_t rtc(Time now) { return osc_.ticks(now) + rtc_offset_; }
  // The instant at which the RTC, as currently set, first reads `v` (at or before now if it
  // already has; 0 if it started above v). Writing RTC_LO or RTC_ADJ changes the answer.
  Time rtc_instant(std::uint64_t v);
  std::uint64_t osc_ticks(Time t) { return osc_.ticks(t); }
  // Called after every change of the RTC by firmware (RTC_LO, RTC_ADJ), at the write instant:
  // engines waiting for an RTC value re-evaluate (SendDma's timed descriptors).
  std::function<void()> on_rtc_changed;
  // Records the RTC at `t` on the VCD's rtc signal (sampled, not per tick: docs/nic.md).
  void trace_rtc(Time t) { if (rtc_sig_.on()) rtc_sig_.change(t, rtc(t)); }
  // Observer of interval timers: (timer, armed at, expires at, ticks), called when armed.
  std::function<void(int, Time, Time, std::uint32_t)> on_timer_armed;
  // Observer of timer expiry: (timer, time), when the ISR bit is raised.
  std::function<void(int, Time)> on_timer_fired;
  // Timer i is armed and its interrupt (ISR bit 1 + i) enabled: a sleeping core will wake at its deadline (the
  // run's stall watchdog does not count such a wait as a stall).
  bool timer_pending(int i) const { return timers_[i].armed && (imr_ & (i ? 4u : 2u)); }
  const Stats& stats() const { return stats_; }
  // What the NIC reports of this block, keyed as in the reports (Nic::stats_json merges the blocks).
  nlohmann::json stats_json() const;
  void declare_traces();

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool decode_read(std::uint32_t off, std::uint32_t& v);
  bool decode_write(std::uint32_t off, std::uint32_t v);
  std::uint32_t wait_for_event();  // a read of WAIT
  std::uint32_t read_rtc_lo();
  void write_rtc_lo(std::uint32_t v);
  std::uint32_t timer_left(int i);
  void arm_timer(int i, std::uint32_t ticks, Time now);
  void arm_timer_at(int i, std::uint64_t deadline, Time now);  // a write of TIMERn_AT
  void schedule_timer(int i, Time now);                         // (re)computes the expiry instant
  std::uint32_t timer_deadline_lo(int i) const { return timers_[i].armed ? static_cast<std::uint32_t>(timers_[i].deadline) : 0; }
  void rtc_moved(Time now);                                     // after RTC_LO / RTC_ADJ writes
  void adjust_rtc(std::uint32_t v);                             // a write of RTC_ADJ
  void timer0_fired() { timer_fired(0); }
  void timer1_fired() { timer_fired(1); }
  void timer_fired(int i);
  void trace_isr();

  Time latency_;
  Oscillator& osc_;
  std::uint32_t node_id_;
  std::uint32_t isr_ = 0, imr_ = 0;
  std::uint64_t rtc_offset_ = 0;
  std::uint32_t rtc_hi_latch_ = 0, rtc_hi_stage_ = 0;
  std::uint32_t doorbell_ = 0, mailbox_ = 0;
  // A timer is a deadline in RTC ticks (absolute): it expires when the RTC reaches `deadline`,
  // so writing the RTC moves its expiry in time (docs/nic.md, "RTC and timers").
  struct Timer { bool armed = false; std::uint64_t deadline = 0; sc_core::sc_event ev; };
  Timer timers_[2];
  sc_core::sc_event irq_ev_;
  bool sleeping_ = false;
  std::vector<RegisterWindow*> windows_;
  Stats stats_;
  TraceSignal isr_sig_, sleep_sig_, pc_sig_, rtc_sig_;
  RegisterBank<NicRegs> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
