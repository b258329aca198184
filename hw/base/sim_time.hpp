// SystemC time in the project's picosecond Time, for event-driven models.
#pragma once
#include <systemc>

#include "hw/base/time.hpp"

namespace sanvp {

// sc_time_stamp() is a library call returning a reference to the simulation context's current
// time; the one context lives as long as the process, so the reference is taken once and the
// time read through it (the fabric reads it several times per flit).
inline const sc_core::sc_time& kernel_time() {
  static const sc_core::sc_time& t = sc_core::sc_time_stamp();
  return t;
}
inline Time now_ps() { return kernel_time().value(); }
// Delay from now until absolute time t (zero if t is not in the future).
inline sc_core::sc_time delay_to(Time t) {
  const Time now = now_ps();
  return sc_core::sc_time::from_value(t > now ? t - now : 0);
}

}  // namespace sanvp
