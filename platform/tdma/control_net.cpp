#include "platform/tdma/control_net.hpp"

#include <algorithm>

#include "hw/base/sim_time.hpp"

namespace sanvp::tdma {

ControlNet::ControlNet(std::size_t nodes, Time latency, Time per_byte)
    : latency_(latency), per_byte_(per_byte), tx_free_(nodes, 0), box_(nodes) {
  for (std::size_t i = 0; i < nodes; ++i) ev_.push_back(std::make_unique<sc_core::sc_event>());
}

Time ControlNet::send(std::size_t to, CtlMsg m) {
  const Time now = now_ps();
  Time& free = tx_free_.at(m.from);
  free = std::max(free, now) + kMsgBytes * per_byte_;
  m.arrives = free + latency_;
  auto& box = box_.at(to);
  // By arrival; equal arrivals keep their sending order (deterministic).
  box.insert(std::upper_bound(box.begin(), box.end(), m, [](const CtlMsg& a, const CtlMsg& b) { return a.arrives < b.arrives; }), m);
  // The receiver recomputes its wake-up from the box after every wake (next_arrival), so one
  // event with the earliest pending notification is enough.
  ev_[to]->notify(sc_core::sc_time::from_value(m.arrives - now));
  return m.arrives;
}

bool ControlNet::take(std::size_t node, CtlMsg& m) {
  auto& box = box_.at(node);
  if (box.empty() || box.front().arrives > now_ps()) return false;
  m = box.front();
  box.pop_front();
  return true;
}

Time ControlNet::next_arrival(std::size_t node) const { return box_.at(node).empty() ? kNever : box_.at(node).front().arrives; }

}  // namespace sanvp::tdma
