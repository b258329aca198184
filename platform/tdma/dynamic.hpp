// The dynamic part of TDMA (thesis 4.3; issue 16 part 1): demands change over time (the stream
// file's `changes`), the hosts exchange them over the control network (control_net.hpp), every host
// runs the same scheduler on the same demand set, loads the new tables into the inactive bank of
// its NIC and acknowledges with the schedule's hash; the coordinator (the sync master's host)
// collects every acknowledgement and announces the activation boundary: the first cycle boundary
// at least `commit_lead` after the last acknowledgement, on its NIC's synchronized clock. Every
// NIC switches there by its own RTC (tdma_proto.h, banks) — or, without every acknowledgement, none.
//
// commit_lead = (nodes - 1) x 64 B x tdma.ctl.per_byte + tdma.ctl.latency   (the last commit's delivery)
//             + one staging write of the largest message (the loader may be in one: PCI time)
//             + the switch words' PIO write + tdma.ctl.guard (the host's clock reading)
//             + max(tdma.run.stage_ahead, 2 x tdma.run.lead)   (the new cycle's first message staged in time; the firmware's check)
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/tdma/control_net.hpp"
#include "platform/tdma/network.hpp"
#include "platform/tdma/node_loader.hpp"
#include "platform/tdma/scheduler.hpp"
#include "platform/tdma/stream.hpp"

namespace sanvp::tdma {

// A schedule the run may use: version 0 is the file's streams, each accepted change makes one.
struct ScheduleVersion {
  int change = -1;                      // the change that made it (-1: the initial one)
  std::vector<Stream> streams;          // sync streams first, then the demand set
  TdmaSchedule schedule;
  std::uint64_t hash = 0;
};

// What every host decides for change k (the same everywhere: the scheduler is deterministic).
struct ChangeDecision {
  bool accepted = false;
  int version = -1;                     // accepted: the new version
  std::string what;                     // "add stream 40 (n1->n3, period 20, ...)" / "remove stream 31"
  std::string reason;                   // rejected: why (the admission test's reason)
  std::size_t requester = 0;            // node index of the host that makes the demand
};

// Measured per change (host threads and probes; global time, kNever: did not happen).
struct SwitchRecord {
  Time request = kNever, commit = kNever;
  std::vector<Time> demand_rx, ack_sent, ack_rx, commit_rx, armed;  // per node index
  std::vector<Time> switched_at;        // per node index: its RTC at the activation boundary (probe)
  std::int64_t activation_slot = -1, activation_cycle = -1;
  std::string status = "not requested"; // switched | rejected | waiting for acks | past the run's end | ...
  std::uint64_t hash = 0;
};

struct DynamicPlan {
  std::vector<ScheduleVersion> versions;
  std::vector<StreamChange> changes;
  std::vector<ChangeDecision> decisions;  // per change
  TdmaNetwork net;                        // candidate routes for every stream ever declared
  SchedulerConfig sched;
  std::size_t coordinator = 0;            // node index (the sync master's host)
  int mute = -1;                          // node index whose host never acknowledges
  Time latency = 0, per_byte = 0, guard = 0, commit_lead = 0;
  Time busy = 0, arm = 0;                 // the loader's PCI times in commit_lead (a staging write, the switch words)
  std::uint32_t cycles = 0;               // the run's cycles
  std::shared_ptr<ControlNet> ctl;        // made at the start of the simulation
  std::shared_ptr<std::vector<SwitchRecord>> records;
};

// FNV-1a over the cycle and every reservation: the schedule's identity in the acknowledgements.
std::uint64_t schedule_hash(const TdmaSchedule& s);

// The versions and decisions along the file's changes, after d.versions[0] (UserError naming the change for an id
// added twice or a removal of an unknown id or of a sync stream).
void plan_changes(const std::vector<Stream>& initial, const std::vector<StreamChange>& changes, const std::vector<int>& nics,
                  std::vector<std::uint32_t> const& nodes, DynamicPlan& d);

}  // namespace sanvp::tdma
