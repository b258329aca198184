// The receiving side's rules for sending flits ahead (hw/base/lookahead.hpp), shared by every
// transmitter that does it (OutputPort, TrafficEndpoint); each adds the rules of its own side.
#pragma once
#include "hw/base/lookahead.hpp"
#include "hw/link/flow_controller.hpp"
#include "hw/link/transmitter.hpp"

namespace sanvp {

// Departures before the returned time may be sent ahead on `tx`'s channel (none if <= now):
// under the run's limit, the receiver takes flits ahead, and nobody watches the transmitter,
// the flits or the receiving buffer's occupancy.
inline Time downstream_ahead_limit(const LinkTransmitter& tx, Time now) {
  const Time limit = Lookahead::limit();
  const LinkChannel* ch = tx.channel();
  if (limit <= now || tx.watched() || !ch->plain()) return 0;
  const FlowController* rx = ch->rx_buffer();
  return rx && !rx->occupancy_traced() ? limit : 0;
}

// No STOP from the receiver can take effect by t: none already on its way is in force at t, and
// its buffer, this flit included, stays below ks whatever leaves it, so no check is scheduled
// and none can find ks. Only where downstream_ahead_limit allowed sending ahead.
inline bool downstream_room(const LinkTransmitter& tx, Time t, Time now) {
  if (tx.state_at(t).first) return false;
  const FlowController& rx = *tx.channel()->rx_buffer();
  return rx.size_at(now) + 1 < rx.ks();
}

}  // namespace sanvp
