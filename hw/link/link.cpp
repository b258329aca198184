#include "hw/link/link.hpp"

namespace sanvp {

void LinkChannel::declare_traces() {
  auto& tr = Tracer::global();
  data_sig_ = tr.declare(path_, "data", 8);
  kind_sig_ = tr.declare(path_, "kind", 2);
  pkt_sig_ = tr.declare(path_, "packet", 32);
  stopgo_sig_ = tr.declare(path_, "stop", 1);
}

void LinkChannel::trace_flit(const Flit& f, Time t) {
  auto& tr = Tracer::global();
  tr.change(data_sig_, t, f.data);
  tr.change(kind_sig_, t, flit_kind(f));
  tr.change(pkt_sig_, t, f.packet);
  // Back to idle after one character period unless the next flit follows at once (later
  // changes at the same time win).
  tr.change(kind_sig_, t + timing_.cp, 0);
}

}  // namespace sanvp
