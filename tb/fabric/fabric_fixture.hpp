// Helpers shared by the fabric tests: small networks built directly on the Network builder.
#pragma once
#include <systemc>

#include "hw/base/sim_time.hpp"
#include "platform/sim/network.hpp"

namespace sanvp::test {

// Parameters as the tests read them back (defaults unless overridden in `pv`).
struct Timing {
  Time ld, cp, rd, sd, fc;
  int bl, ks, kg;
  explicit Timing(ParamValues& pv)
      : ld(pv.time("", "link", "ld")), cp(pv.time("", "link", "cp")), rd(pv.time("", "switch", "rd")),
        sd(pv.time("", "switch", "sd")), fc(pv.time("", "fc", "fc")), bl(static_cast<int>(pv.integer("", "fc", "bl"))),
        ks(static_cast<int>(pv.integer("", "fc", "ks"))), kg(static_cast<int>(pv.integer("", "fc", "kg"))) {}
  // Flits still sent after a STOP leaves the receiver, sender streaming: ceil((2ld+2fc)/cp) - 1.
  int n_rt() const { return static_cast<int>((2 * ld + 2 * fc + cp - 1) / cp) - 1; }
};

// A chain of p 8-port switches: sw_i.p2 <-> sw_{i+1}.p3. Node 0 on sw0.p0 (source), node 1 on
// sw_{p-1}.p1 (destination), node 2 on sw_{p-1}.p4 (a second source at the last switch).
inline void build_chain(Network& net, int p) {
  for (int i = 0; i < p; ++i) net.add_switch(8);
  net.add_node(0, 0);
  net.add_node(p - 1, 1);
  net.add_node(p - 1, 4);
  for (int i = 0; i + 1 < p; ++i) net.connect(i, 2, i + 1, 3);
  net.build();
  net.compute_shortest_routes();
}

using sanvp::now_ps;
inline void run_for(Time t) { sc_core::sc_start(sc_core::sc_time::from_value(t)); }

}  // namespace sanvp::test
