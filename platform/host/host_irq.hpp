// HostIrq: one interrupt source of a host (the NIC's HOST_IRQ, each peripheral device's line).
// A raise reaches the host's threads host.irq later; every raise is delivered, in order, even
// when another is still in flight (a bare sc_event would keep only the earliest notification),
// and counted. Threads either wait on event() and check their own condition, or take the
// deliveries one by one with wait_next().
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <systemc>
#include <utility>

#include "hw/base/time.hpp"

namespace sanvp::host {

class HostIrq {
 public:
  // Spawns the delivery process: construct before the simulation starts or from a thread.
  HostIrq(std::string name, Time latency);
  const std::string& name() const { return name_; }
  void raise(std::uint32_t value);
  // Notified at each delivery (host.irq after the raise).
  const sc_core::sc_event& event() const { return delivered_ev_; }
  std::uint64_t raised() const { return raised_; }
  std::uint64_t delivered() const { return delivered_; }
  // Blocks the calling thread until a delivered interrupt it has not taken yet; returns its value.
  // The last kKeep untaken deliveries are kept.
  std::uint32_t wait_next();
  static constexpr std::size_t kKeep = 4096;

 private:
  void deliver();

  std::string name_;
  Time latency_;
  std::deque<std::pair<Time, std::uint32_t>> in_flight_;  // (delivery time, value), in time order
  std::deque<std::uint32_t> untaken_;
  std::uint64_t raised_ = 0, delivered_ = 0;
  sc_core::sc_event due_ev_, delivered_ev_;
};

}  // namespace sanvp::host
