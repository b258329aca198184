#include "hw/link/link.hpp"

namespace sanvp {

void LinkChannel::declare_traces() {
  data_sig_.declare(path_, "data", 8);
  kind_sig_.declare(path_, "kind", 2);
  pkt_sig_.declare(path_, "packet", 32);
  stopgo_sig_.declare(path_, "stop", 1);
  update_plain();
}

void LinkChannel::trace_flit(const Flit& f, Time t) {
  data_sig_.change(t, f.data);
  kind_sig_.change(t, flit_kind(f));
  pkt_sig_.change(t, f.packet);
  // Back to idle after one character period unless the next flit follows at once (later
  // changes at the same time win).
  kind_sig_.change(t + timing_.cp, 0);
}

}  // namespace sanvp
