#include "platform/host/host_irq.hpp"

#include "hw/base/sim_time.hpp"

namespace sanvp::host {

HostIrq::HostIrq(std::string name, Time latency) : name_(std::move(name)), latency_(latency) {
  sc_core::sc_spawn_options o;
  o.spawn_method();
  o.set_sensitivity(&due_ev_);
  o.dont_initialize();
  sc_core::sc_spawn([this] { deliver(); }, (name_ + "_irq").c_str(), &o);
}

void HostIrq::raise(std::uint32_t value) {
  ++raised_;
  // The latency is the same for every raise, so deliveries stay in raise order and only the
  // first in flight needs the event armed; deliver() re-arms it for the next.
  if (in_flight_.empty()) due_ev_.notify(sc_core::sc_time::from_value(latency_));
  in_flight_.emplace_back(now_ps() + latency_, value);
}

void HostIrq::deliver() {
  const Time now = now_ps();
  while (!in_flight_.empty() && in_flight_.front().first <= now) {
    // Bounded: a host that only waits on event() never takes them.
    if (untaken_.size() == kKeep) untaken_.pop_front();
    untaken_.push_back(in_flight_.front().second);
    in_flight_.pop_front();
    ++delivered_;
  }
  if (!in_flight_.empty()) due_ev_.notify(sc_core::sc_time::from_value(in_flight_.front().first - now));
  delivered_ev_.notify();  // immediate: waiting threads run at this instant, as host.irq says
}

std::uint32_t HostIrq::wait_next() {
  while (untaken_.empty()) sc_core::wait(delivered_ev_);
  const std::uint32_t v = untaken_.front();
  untaken_.pop_front();
  return v;
}

}  // namespace sanvp::host
