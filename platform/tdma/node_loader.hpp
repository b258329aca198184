// The host program of a TDMA node (firmware/tdma/tdma_proto.h is the contract): it loads the
// node's send table (one TDMA cycle: per entry its position in the cycle, kind, start offset,
// route) into bank 0 and its sync role into the firmware by PIO, rings the doorbell, then stages
// every reserved message of the node into NIC SRAM ahead of its slot — the payload and its
// sequence word written in one PCI transaction into the staging ring, paced by its NIC's clock —
// until the completion block the firmware DMAs into host memory is there. With stream changes
// (dynamic.hpp) it also takes part in the control protocol: demands, its own scheduler run, the
// new table into the inactive bank, the acknowledgement, the switch words at the commit (and, on
// the coordinator's host, the choice of the activation boundary).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/base/time.hpp"
#include "platform/host/host.hpp"
#include "platform/host/host_apps.hpp"

namespace sanvp::tdma {

struct TdmaEntry {
  std::uint32_t pos_ticks = 0, pos_slots = 0;      // the slot start's distance from the cycle's boundary
  std::uint32_t kind = 0;                          // tdma_abi::kKindSync / kKindData / kKindBest
  std::int64_t offset_ticks = 0;                   // start = slot start + offset (negative: early sending)
  std::uint32_t bytes = 0;                         // payload
  std::uint32_t stream = 0;
  std::uint32_t slots = 1;                         // host only: the message's slots (its staging buffer is busy until they end)
  std::vector<std::uint8_t> route;
};

// One schedule version's table for the node (a bank of the firmware, tdma_proto.h).
struct TdmaBank {
  std::vector<TdmaEntry> entries;      // in slot order
  std::uint32_t cycle_slots = 0, cycle_ticks = 0, tx_ticks = 0;
  std::uint32_t syncs = 0;             // sync packets this node receives per cycle
};

// A message to stage: the node's m-th data message (m = 0, 1, ... over the run, in send order),
// written when its NIC's RTC (the TDMA time) reaches `rtc`. The host cannot read the RTC register:
// it follows the clock word the firmware publishes on every wake (tdma_proto.h), re-read every
// `resync` of its own clock.
struct StageJob {
  std::uint32_t m = 0;
  std::uint64_t rtc = 0, slot = 0;
  std::uint32_t bytes = 0, stream = 0;
};

struct DynamicPlan;

struct TdmaNodePlan {
  std::size_t index = 0;               // in the run's node list
  bool master = false;
  std::uint32_t lead = 0;              // ticks before a start at which the firmware queues it
  std::uint64_t first = 0;             // RTC of the boundary of cycle 0 (slot first_slot)
  std::uint32_t first_slot = 0, cycles = 0;
  std::uint32_t apply = 0;             // slave
  std::vector<TdmaBank> versions;      // per schedule version; version 0 runs first
  std::uint32_t slot_ticks = 0;
  std::uint64_t stage_ahead = 0;       // ticks
  double tick_ps = 1;                  // nominal RTC tick: the host's conversion of ticks to its own time
  Time resync = 0, poll = 0;           // tdma.run.resync, tdma.run.poll
  std::shared_ptr<const DynamicPlan> dyn;  // the changes and the control network (null: none)
};

struct TdmaNodeOutcome {
  bool done = false;
  std::uint32_t error = 0, sent = 0, received = 0, applied = 0, refused = 0, data = 0, stage_miss = 0, best = 0, data_rx = 0,
                late = 0, stale = 0;
  std::vector<Time> staged_at;         // per data message m: when its data reached NIC SRAM
  std::vector<StageJob> staged;        // per data message m: what it was
};

// Runs on the node's host thread; a firmware error becomes a SimError naming the node.
void run_tdma_loader(host::Host& host, const TdmaNodePlan& plan, TdmaNodeOutcome& out, host::AppResult& res);

}  // namespace sanvp::tdma
