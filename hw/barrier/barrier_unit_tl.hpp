// BarrierUnitTl: the event-driven (transaction-level) wrapper of BarrierCore for the switch
// model, which has no clock. The switch hands it whole barrier messages and config requests it
// diverted at an input (wire_format.hpp: is_barrier_lead), and pulls messages for an output port
// when that port's transmitter is free. Same rules as the clocked BarrierUnit (one BarrierCore);
// a message becomes available `delay` after the event that produced it (the clocked unit: one
// cycle).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hw/barrier/barrier_core.hpp"
#include "hw/barrier/barrier_unit_tl_params.hpp"
#include "hw/base/params.hpp"
#include "hw/base/time.hpp"

namespace sanvp::barrier {

// BarrierUnitConfig {registers, delay}: barrier_unit_tl.params.yaml.

class BarrierUnitTl {
 public:

  // Told that `port` has a message to send from time `at` on (peek/take it then).
  using OutputReady = std::function<void(int port, Time at)>;

  BarrierUnitTl(int ports, const BarrierUnitConfig& cfg);

  void set_output_ready(OutputReady fn) { output_ready_ = std::move(fn); }
  // Register write from a node; the response goes back out of the port the request came in on.
  ConfigResponse configure(const ConfigCommand& cmd, Time now);
  // A complete barrier message arrived on `port`. Returns why it was dropped, if it was.
  std::optional<DropReason> receive(int port, std::uint16_t raw, Time now);
  std::optional<BarrierMessage> peek(int port) const { return core_.offer(port); }
  // The switch sent the message peek(port) returned.
  void take(int port, Time now);

  const BarrierCore& core() const { return core_; }
  const BarrierUnitConfig& config() const { return cfg_; }

 private:
  void settle(Time now);

  BarrierUnitConfig cfg_;
  BarrierCore core_;
  std::vector<bool> announced_;
  OutputReady output_ready_;
};

}  // namespace sanvp::barrier
