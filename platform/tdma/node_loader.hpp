// The host program of a TDMA node (firmware/tdma/tdma_proto.h is the contract): it loads the
// node's send table (one TDMA cycle: per entry the distance from the previous slot, kind, start
// offset, route) and its sync role into the firmware by PIO, rings the doorbell, then stages
// every reserved message of the node into NIC SRAM ahead of its slot — the payload and its
// sequence word written in one PCI transaction into the staging ring, at a host time the plan
// gives — and finally waits for the completion block the firmware DMAs into host memory.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/base/time.hpp"
#include "platform/host/host.hpp"
#include "platform/host/host_apps.hpp"

namespace sanvp::tdma {

struct TdmaEntry {
  std::uint32_t delta_ticks = 0, delta_slots = 0;  // from the previous entry's slot start (entry 0: the previous cycle's last)
  std::uint32_t kind = 0;                          // tdma_abi::kKindSync / kKindData / kKindBest
  std::int64_t offset_ticks = 0;                   // start = slot start + offset (negative: early sending)
  std::uint32_t bytes = 0;                         // payload
  std::uint32_t stream = 0;
  std::vector<std::uint8_t> route;
};

// A message to stage: the node's m-th data message (send order), written when its NIC's RTC (the
// TDMA time) reaches `rtc`. The host cannot read the RTC register: it follows the clock word the
// firmware publishes on every wake (tdma_proto.h), re-read every `resync` of its own clock.
struct StageJob {
  std::uint32_t m = 0;
  std::uint64_t rtc = 0;
  std::uint32_t bytes = 0, stream = 0;
};

struct TdmaNodePlan {
  bool master = false;
  std::uint32_t lead = 0;              // ticks before a start at which the firmware queues it
  std::uint64_t first = 0;             // RTC of entry 0's slot start in cycle 0
  std::uint32_t first_slot = 0, cycles = 0;
  std::uint32_t tx_ticks = 0, apply = 0, syncs = 0;  // slave
  std::vector<TdmaEntry> entries;
  std::vector<StageJob> stage;         // ascending `rtc`
  double tick_ps = 1;                  // nominal RTC tick: the host's conversion of ticks to its own time
  Time resync = 0, poll = 0;           // tdma.run.resync, tdma.run.poll
};

struct TdmaNodeOutcome {
  bool done = false;
  std::uint32_t error = 0, sent = 0, received = 0, applied = 0, refused = 0, data = 0, stage_miss = 0, best = 0, data_rx = 0,
                late = 0, stale = 0;
  std::vector<Time> staged_at;         // per data message m: when its data reached NIC SRAM
};

// Runs on the node's host thread; a firmware error becomes a SimError naming the node.
void run_tdma_loader(host::Host& host, const TdmaNodePlan& plan, TdmaNodeOutcome& out, host::AppResult& res);

}  // namespace sanvp::tdma
