// The TLM quantum: how far any initiator (a NIC's embedded core) may run ahead of SystemC time
// before it synchronizes. One value for the whole simulation, as tlm_quantumkeeper's global
// quantum is: `sim.quantum`, never per instance.
#pragma once
#include "hw/base/params.hpp"

namespace sanvp {

struct QuantumParams {
  static inline const ParamRegistrar params{{
      {"sim", "quantum", ParamType::Time, "ns", "10us",
       "TLM quantum: how far an embedded core may run ahead of SystemC time (one value for the whole simulation)"},
  }};
};

// sim.quantum (read without an instance path, so no instance can override it); 0 is refused.
inline Time tlm_quantum(ParamValues& pv) {
  const Time q = pv.time("", "sim", "quantum");
  if (q == 0) pv.fail("", "sim", "quantum", "must be > 0");
  return q;
}

}  // namespace sanvp
