// Probe test firmware, built as protocol firmware (PROTOCOL: no fw::time_ns): reads its RTC and
// writes probes: tag k (1..g_cfg[0]) with the low word of the RTC read just before the probe.
// Between probes it waits g_cfg[1] RTC ticks by polling the RTC.
#include "fw/fw.h"
#include "fw/nic.h"
#include "fw/routes.h"

FW_DEFINE_ROUTE_TABLE()

namespace nic = fw::nic;

extern "C" {
volatile uint32_t g_cfg[2] = {4, 100};  // probes, ticks between probes (the test pokes them)
}

int main() {
  for (uint32_t k = 1; k <= g_cfg[0]; ++k) {
    const uint64_t t = nic::rtc();
    fw::probe(k, static_cast<uint32_t>(t));
    while (nic::rtc() < t + g_cfg[1]) {
    }
  }
  return 0;
}
