// GenerationClock: wakes the test endpoints' traffic generators, the ones due at one instant in
// the order they were added (the network adds them in node order).
//
// Why one clock and not one event per generator: every generator takes the next id of the run's
// packet table when it creates a packet. With an event each, the generators due at one instant
// ran in the kernel's order for equal times, and that order depends on every other pending
// timed event (the kernel's queue is a heap, not stable): an unrelated change (a monitor, a
// different number of events in the fabric) renumbered the packets of periodic traffic.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <systemc>
#include <vector>

#include "hw/base/sim_time.hpp"

namespace sanvp {

class GenerationClock : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(GenerationClock);
  explicit GenerationClock(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(run);
    sensitive << ev_;
    dont_initialize();
  }

  // A generator; returns its slot. Slots are served in this order at one instant.
  std::size_t add(std::function<void()> generate) {
    gens_.push_back(Gen{std::move(generate), kNever, 0});
    return gens_.size() - 1;
  }

  // Wake `slot` at t (now if not in the future). Each generator has one cause, its next arrival:
  // as with an sc_event, an earlier pending wake-up wins and a later request is dropped.
  void at(std::size_t slot, Time t) {
    const Time now = now_ps();
    if (t < now) t = now;
    Gen& g = gens_[slot];
    if (g.due <= t) return;
    g.due = t;
    ++g.gen;  // a later entry of this slot, if any, is now stale
    heap_.push_back(Entry{t, slot, g.gen});
    std::push_heap(heap_.begin(), heap_.end(), later);
    if (heap_.front().t == t) ev_.notify(sc_core::sc_time::from_value(t - now));
  }

 private:
  struct Gen { std::function<void()> generate; Time due; std::uint64_t gen; };
  struct Entry { Time t; std::size_t slot; std::uint64_t gen; };
  // Min-heap on (time, slot): at one instant, slots in order.
  static bool later(const Entry& a, const Entry& b) { return a.t != b.t ? a.t > b.t : a.slot > b.slot; }

  void run() {
    const Time now = now_ps();
    while (!heap_.empty() && heap_.front().t <= now) {
      const Entry e = heap_.front();
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
      Gen& g = gens_[e.slot];
      if (g.gen != e.gen) continue;  // superseded by an earlier request
      g.due = kNever;
      g.generate();
    }
    if (!heap_.empty()) ev_.notify(sc_core::sc_time::from_value(heap_.front().t - now));
  }

  sc_core::sc_event ev_;
  std::vector<Gen> gens_;
  std::vector<Entry> heap_;
};

}  // namespace sanvp
