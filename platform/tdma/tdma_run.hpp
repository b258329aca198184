// A simulated TDMA run (tdma-realtime-myrinet.txt 4.3-4.4, issue 16 part 3): the streams of a
// stream file and the clock-sync streams are scheduled together (scheduler.hpp); every NIC runs
// builtin:tdma with its own send table (its reserved slots of the cycle), the master also sends
// the sync timestamps, the slaves apply them; each node's host stages its reserved messages into
// NIC SRAM ahead of their slots. Measured from the fabric's own records (send and receive DMA
// observers, every switch's grants: global time, never the firmware's clock): per stream the
// messages sent and delivered, deadline misses, latency, jitter, the time reserved packets were
// blocked, and the first collision. results.tdma_run (tdma_run_report.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "platform/scenario/network_arg.hpp"
#include "platform/sim/run.hpp"
#include "platform/tdma/dynamic.hpp"
#include "platform/tdma/node_loader.hpp"
#include "platform/tdma/scheduler.hpp"
#include "platform/tdma/stream.hpp"
#include "platform/tdma/sync_run.hpp"

namespace sanvp::tdma {

// What the run varies (the CLI's options; an experiment sweeps them). Unset: the parameter.
struct RunKnobs {
  std::optional<std::int64_t> cycles;
  std::optional<bool> sync, early;
  std::optional<Time> margin;
  std::optional<double> best_effort;
  bool progress = false;               // a progress bar on stderr (long runs)
};

struct TdmaRunPlan {
  SyncPlan sync;                       // nodes, clocks, the master, the slaves' transmission times
  std::string streams_name;
  std::vector<Stream> streams;         // sync streams first
  TdmaSchedule schedule;
  std::uint32_t cycles = 0;
  bool early = true, sync_on = true;
  Time margin = 0, t_a = 0, t_early = 0, lead = 0, stage_ahead = 0, resync = 0, poll = 0;
  std::int64_t early_ticks = 0;        // early sending: start - slot start = T_early - slot, in ticks (negative; 0 when off)
  std::uint32_t payload = 0, best_bytes = 0, max_hops = 0;
  double best_effort = 0;
  Time cp = 0, ld = 0, rd = 0, sd = 0;  // link and switch timing (global values)
  std::vector<TdmaNodePlan> nodes;      // per node index (sync.nodes)
  Topology topo;
  std::set<std::pair<std::string, std::int64_t>> reserved;  // (link name, slot of the cycle) held by a reservation
  std::shared_ptr<DynamicPlan> dyn;     // the schedule versions (version 0: this schedule) and the changes
  const Stream* stream(std::int64_t id) const;
};

TdmaRunPlan plan_tdma_run(ParamValues& pv, std::uint64_t seed, const NetworkArg& net, const StreamFile& file, const RunKnobs& knobs);

// One packet seen by the fabric.
struct PacketRecord {
  std::uint32_t id = 0, src = 0, dst = 0, kind = 0;  // kind: tdma_abi::kKind*
  std::int64_t stream = -1;
  std::uint32_t slot = 0;              // absolute slot it belongs to
  std::uint32_t hops = 0, wire = 0;    // route bytes; bytes on the wire incl. CRC
  std::vector<std::uint8_t> route;
  Time first = 0, last = 0;            // departures of its first and last byte at the source
  Time arrived = kNever;               // its last byte at the destination (kNever: not delivered)
  Time blocked = 0, early_wait = 0;    // waits at switch outputs (below) and STOP-held time
};

// A wait of a reserved packet at a switch output held by another packet.
struct Collision {
  Time at = 0;                         // when its header asked for the output
  Time waited = 0;
  std::string sw;                      // switch and output port
  int port = -1;
  std::uint32_t packet = 0, holder = 0;
  std::int64_t stream = -1, holder_stream = -1;  // -1: best effort / unknown
  std::uint32_t slot = 0, holder_slot = 0;
};

struct StreamResult {
  std::int64_t id = 0;
  int src = -1, dst = -1;
  bool sync = false, admitted = false;
  std::string reason;
  std::uint64_t expected = 0, sent = 0, delivered = 0, deadline_misses = 0, stage_misses = 0, blocked_packets = 0;
  Time latency_min = 0, latency_max = 0, blocked = 0, early_wait = 0;
  double latency_mean = 0;
  Time jitter = 0;                     // max - min latency
  std::int64_t worst_slack = 0;        // ps between delivery and deadline, smallest (negative: a miss)
  std::int64_t first_slot = -1, last_slot = -1;  // absolute slots of its first and last message sent (-1: none)
};

// The schedule in force from an absolute slot on (version 0 from the start; each committed change
// from its activation boundary), and the run's cycles it covers.
struct RunPhase {
  std::uint64_t slot = 0;
  std::uint32_t cycle = 0, cycles = 0;
  std::size_t version = 0;
};

struct TdmaRunResults {
  std::vector<StreamResult> streams;
  std::uint64_t packets = 0, reserved_blocked = 0, deadline_misses = 0, stage_misses = 0, best_sent = 0, best_seen = 0, best_delivered = 0,
                best_in_reserved = 0,
                refused = 0, late = 0, stale_syncs = 0;
  Time blocked = 0, early_wait = 0;
  std::optional<Collision> first_collision;
  Time staging_slack = kNever;         // smallest (check instant - data in SRAM) over staged messages
  Time first_send_error = kNever;      // smallest |first byte - planned start| (exact: 0)
  Time max_send_error = 0;             // largest, over the master's timed sends (its RTC never moves)
  std::uint64_t timed_checked = 0;
  std::vector<RunPhase> phases;
};

RunResult run_tdma(ParamValues& pv, const RunOptions& opt, const NetworkArg& net, const StreamFile& file, const RunKnobs& knobs);

}  // namespace sanvp::tdma
