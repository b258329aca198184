// Probes: measurement, not hardware. Firmware writes a tag (PROBE_TAG) and then a value
// (PROBE_VALUE) to its system registers; at the instant of that store the platform records
// (global time, node, RTC, tag, value). A probe costs the firmware its stores and nothing else,
// so measuring does not move what is measured. Global simulated time reaches users only this
// way when protocol firmware is denied the TIME registers (nic.sys.time_access = false).
#pragma once
#include <cstdint>
#include <functional>

#include "hw/base/time.hpp"

namespace sanvp::nic {

struct ProbeRecord {
  Time time = 0;            // global simulated time of the PROBE_VALUE store
  std::uint32_t node = 0;   // the NIC's node id
  std::uint64_t rtc = 0;    // the NIC's RTC at that time (0 on a platform without one)
  std::uint32_t tag = 0, value = 0;
};

using ProbeSink = std::function<void(const ProbeRecord&)>;

}  // namespace sanvp::nic
