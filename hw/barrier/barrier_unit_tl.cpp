#include "hw/barrier/barrier_unit_tl.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::barrier {

BarrierUnitTl::BarrierUnitTl(int ports, const BarrierUnitConfig& cfg)
    : cfg_(cfg), core_(ports, cfg.registers), announced_(static_cast<std::size_t>(ports), false) {}

ConfigResponse BarrierUnitTl::configure(const ConfigCommand& cmd, Time now) {
  const ConfigResponse r = core_.configure(cmd);
  core_.fire();
  settle(now);
  return r;
}

std::optional<DropReason> BarrierUnitTl::receive(int port, std::uint16_t raw, Time now) {
  auto dropped = core_.arrive(port, raw);
  core_.fire();
  settle(now);
  return dropped;
}

void BarrierUnitTl::take(int port, Time now) {
  core_.take(port);
  announced_[static_cast<std::size_t>(port)] = false;
  core_.fire();  // a register whose outputs just drained may complete a waiting reduction
  settle(now);
}

// Announce every port that has a message the switch has not been told about; forget ports that
// lost theirs (a RELEASE discards pending outputs).
void BarrierUnitTl::settle(Time now) {
  for (int p = 0; p < core_.ports(); ++p) {
    const bool has = core_.selected(p) >= 0;
    const bool slot = announced_[static_cast<std::size_t>(p)];
    if (has && !slot) {
      announced_[static_cast<std::size_t>(p)] = true;
      if (output_ready_) output_ready_(p, now + cfg_.delay);
    } else if (!has) {
      announced_[static_cast<std::size_t>(p)] = false;
    }
  }
}

}  // namespace sanvp::barrier
