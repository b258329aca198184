// Lookahead: how far ahead a transmitter may send the flits of a worm in one activation
// (OutputPort::transmit, TrafficEndpoint::transmit). A flit sent early is stamped with its exact
// departure, so nothing changes as long as nobody reads the model's state before that departure;
// the limit marks the next instant where someone does. The run loop (platform/sim/run.cpp) sets
// it to the end of each kernel step, capped at the measurement window's snapshots. Departures
// must be before it; 0 (the default: tests that call sc_start themselves) sends nothing ahead.
// A NIC's core reads the same limit: it runs on through a slice end without handing control to
// the kernel only before it (LanaiCore::may_run_on; `fw run` sets it to its timeout).
//
// The observation point is the next window snapshot alone (every link's flit count), set whether
// or not the lookahead is on: a source's short link-delay horizon (TrafficEndpoint) must not
// send a flit departing at or after it before the snapshot, or the flit would count in the
// wrong window. kNever (the default) when nobody takes snapshots.
#pragma once
#include "hw/base/time.hpp"

namespace sanvp {

class Lookahead {
 public:
  static Time limit() { return limit_; }
  static void set_limit(Time t) { limit_ = t; }
  static Time observation() { return observation_; }
  static void set_observation(Time t) { observation_ = t; }

 private:
  static inline Time limit_ = 0;
  static inline Time observation_ = kNever;
};

}  // namespace sanvp
