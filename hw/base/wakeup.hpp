// Wakeup: "wake me at the earliest of these times, and again at each later one".
//
// SystemC keeps only the earliest pending notification of an sc_event: notify(t2) while a
// notification at t1 < t2 is pending is silently discarded. A process that sleeps on one event
// notified by several causes (the link's character period ends, GO takes effect, a flit arrives)
// loses the later cause whenever the earlier wake-up finds nothing to do — a lost wake-up, seen
// as a false hang or as a link idling while a flit waits behind GO.
//
// Wakeup keeps every requested time in a min-heap and keeps the event armed for the earliest
// one; each activation calls fired() first, which forgets the times that have come and re-arms
// for the next. So every cause gets its activation. The process must decide what to do from
// state on every activation: a spurious wake-up is harmless, a lost one is not.
//
//   SC_METHOD(transmit); sensitive << wake_.event(); dont_initialize();
//   void transmit() { wake_.fired(); ...; if (later) { wake_.at(t); return; } ... }
#pragma once
#include <algorithm>
#include <functional>
#include <systemc>
#include <vector>

#include "hw/base/sim_time.hpp"

namespace sanvp {

class Wakeup {
 public:
  const sc_core::sc_event& event() const { return ev_; }

  // Wake the process at t (now if t is not in the future). Never discarded.
  void at(Time t) {
    const Time now = now_ps();
    if (t < now) t = now;
    if (!times_.empty() && times_.front() <= t) {
      // An earlier or equal wake-up is armed; remember this one for the re-arm (once).
      if (times_.front() != t) push(t);
      return;
    }
    push(t);
    ev_.notify(sc_core::sc_time::from_value(t - now));  // earliest wins: replaces the later one
  }
  void now() { at(now_ps()); }

  // First thing in every activation: drop the times that have come; re-arm for the next.
  void fired() {
    const Time now = now_ps();
    while (!times_.empty() && times_.front() <= now) pop();
    if (!times_.empty()) ev_.notify(sc_core::sc_time::from_value(times_.front() - now));
  }

  bool pending() const { return !times_.empty(); }
  Time next() const { return times_.empty() ? kNever : times_.front(); }

 private:
  void push(Time t) {
    times_.push_back(t);
    std::push_heap(times_.begin(), times_.end(), std::greater<Time>());
  }
  void pop() {
    std::pop_heap(times_.begin(), times_.end(), std::greater<Time>());
    times_.pop_back();
  }

  // The times first: an owner that keeps its own hot state just before its Wakeup (OutputPort)
  // reads them in the same cache line.
  std::vector<Time> times_;  // min-heap of requested wake-up times
  sc_core::sc_event ev_;
};

}  // namespace sanvp
