// The host program of the TDMA clock synchronization: what a node's host tells its NIC before
// the firmware runs (firmware/tdma/tdma_proto.h is the contract): master or slave, the slot and
// the sync period, the run's length; the master's send table (slot position and slave, from the
// scheduler's sync reservations) and start; a slave's transmission time. It is the TDMA node
// loader (node_loader.hpp) with only sync entries: one cycle = one sync period.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "platform/host/host.hpp"
#include "platform/host/host_apps.hpp"

namespace sanvp::tdma {

struct SyncNodePlan {
  bool master = false;
  std::uint32_t slot_ticks = 0;  // one slot in nominal RTC ticks
  std::uint32_t period = 0;      // slots per sync period
  std::uint32_t periods = 0;     // sync periods to run
  std::uint64_t start = 0;       // master: RTC at slot 0
  std::uint32_t tx_ticks = 0;    // slave: transmission time in its nominal ticks
  std::uint32_t apply = 0;       // slave: syncs to apply (tdma_abi::kAll: all)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sends;  // master: (slot position, slave node), ascending
  std::vector<std::vector<std::uint8_t>> routes;                // master: per send, the reserved route
};

struct SyncNodeOutcome {
  bool done = false;
  std::uint32_t error = 0, sent = 0, received = 0, applied = 0, refused = 0;
};

// Runs on the node's host thread; a firmware error becomes a SimError naming the node.
void run_sync_loader(host::Host& host, const SyncNodePlan& plan, SyncNodeOutcome& out, host::AppResult& res);

}  // namespace sanvp::tdma
