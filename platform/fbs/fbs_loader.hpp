// The FBS host program: what a node's host tells its NIC before the firmware synchronizes
// (firmware/fbs/fbs_proto.h is the contract): the slot length in the NIC's own ticks, the
// packet length, the NIC's part of the synchronizing schedule, the period and the start. It
// loads them by PIO, rings the doorbell and waits for the firmware's completion block (DMA into
// host memory). The schedule reaches each NIC from its host, as in the paper's system model.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/host/host.hpp"
#include "platform/host/host_apps.hpp"

namespace sanvp::fbs {

// One NIC's part of a run.
struct NodePlan {
  std::uint32_t slot_ticks = 0;   // one slot in this NIC's nominal RTC ticks
  std::uint32_t packet_len = 0;   // bytes of a sync packet from its first route byte (CRC not included)
  std::uint32_t period = 0;       // si: slots from one round's start to the next
  std::uint32_t rounds = 0;       // periods to run
  std::uint64_t start = 0;        // RTC value at which slot 0 begins
  std::uint32_t probe_every = 0;  // also probe every n-th slot boundary (0: only those the firmware wakes for)
  std::uint32_t sync_rounds = 0;  // rounds that synchronize (0: all); later rounds run free
  std::vector<std::uint32_t> table;  // per sync slot: destination node, or kNoSend
};

// The firmware's completion block.
struct NodeOutcome {
  bool done = false;
  std::uint32_t error = 0, pauses = 0, paused_ticks = 0, refused = 0, received = 0, sent = 0;
};

// Runs on the node's host thread: loads `plan`, waits for the completion, fills `out` and `res`.
// A firmware that reports an error makes it a SimError naming the node and the error.
void run_loader(host::Host& host, const NodePlan& plan, NodeOutcome& out, host::AppResult& res);

// Text of a completion error code.
std::string error_text(std::uint32_t code);

}  // namespace sanvp::fbs
