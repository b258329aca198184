// The TLM quantum: how far any initiator (a NIC's embedded core) may run ahead of SystemC time
// before it synchronizes. One value for the whole simulation, as tlm_quantumkeeper's global
// quantum is: `sim.quantum`, never per instance.
#pragma once
#include "hw/base/params.hpp"
#include "hw/base/quantum_params.hpp"

namespace sanvp {

// sim.quantum (read without an instance path, so no instance can override it; the declared
// range refuses 0).
inline Time tlm_quantum(ParamValues& pv) { return QuantumParams::kQuantum.get(pv); }

}  // namespace sanvp
