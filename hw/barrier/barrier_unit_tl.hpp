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
#include "hw/base/params.hpp"
#include "hw/base/time.hpp"

namespace sanvp::barrier {

struct BarrierUnitConfig {
  int registers = 8;
  Time delay = 10 * kNs;
  static BarrierUnitConfig from_params(ParamValues& pv, const std::string& path);
};

class BarrierUnitTl {
 public:
  static inline const ParamRegistrar params{{
      {"barrier", "registers", ParamType::Int, "", "8", "barrier registers per switch (BTIN Figure 4)"},
      {"barrier", "delay", ParamType::Time, "ns", "10ns",
       "barrier unit: from a complete message (or a freed output) to the next message offered"},
  }};

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
