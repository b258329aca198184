// Agenda: the timed event list of the unslotted Clint channel models (quick channel, unscheduled
// bulk channels). One SC_THREAD per channel pops events in (time, priority, insertion) order and
// waits in SystemC time between them, so simulated time is SystemC time and only instants where
// something happens cost a context switch.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <systemc>
#include <vector>

#include "hw/base/time.hpp"

namespace sanvp::clint {

class Agenda {
 public:
  // Lower `prio` runs first among events of one instant.
  void at(Time t, int prio, std::function<void()> fn) { q_.push(Ev{t, prio, seq_++, std::move(fn)}); }
  bool empty() const { return q_.empty(); }
  Time next_time() const { return q_.top().t; }
  // Runs events until the agenda is empty or the next one lies beyond `until`.
  void run(Time until) {
    while (!q_.empty() && q_.top().t <= until) {
      Ev e = q_.top();
      q_.pop();
      const Time now = static_cast<Time>(sc_core::sc_time_stamp().value());
      if (e.t > now) sc_core::wait(sc_core::sc_time::from_value(e.t - now));
      e.fn();
    }
  }

 private:
  struct Ev {
    Time t;
    int prio;
    std::uint64_t seq;
    std::function<void()> fn;
    bool operator>(const Ev& o) const {
      if (t != o.t) return t > o.t;
      if (prio != o.prio) return prio > o.prio;
      return seq > o.seq;
    }
  };
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> q_;
  std::uint64_t seq_ = 0;
};

inline Time sc_now_ps() { return static_cast<Time>(sc_core::sc_time_stamp().value()); }

}  // namespace sanvp::clint
