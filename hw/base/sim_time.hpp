// SystemC time in the project's picosecond Time, for event-driven models.
#pragma once
#include <systemc>

#include "hw/base/time.hpp"

namespace sanvp {

inline Time now_ps() { return sc_core::sc_time_stamp().value(); }
// Delay from now until absolute time t (zero if t is not in the future).
inline sc_core::sc_time delay_to(Time t) {
  const Time now = now_ps();
  return sc_core::sc_time::from_value(t > now ? t - now : 0);
}

}  // namespace sanvp
