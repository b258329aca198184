// A simulated TDMA clock synchronization (tdma-realtime-myrinet.txt 5.2, issue 16 part 2): every
// NIC node of the network runs builtin:tdma; one is the master. The scheduler places the sync
// streams (master -> every slave, period tdma.sync_period) as for any TDMA traffic; the master
// sends its timestamp in each reserved slot; a slave sets its RTC to it plus the transmission
// time the host derived from the link, switch and core parameters of its path. Oscillator errors
// spread over +-tdma.sync.drift; the RTC resolution is nic.osc.freq (2 MHz = the LANai's 0.5 us
// unless given). The report (results.tdma_sync) gives every slave's offset from the master after
// each sync and just before the next, measured by probes against global time, beside the bound
// derived from the parameters: resolution + transmission-time error + drift x period.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/fbs/skew_measure.hpp"
#include "platform/scenario/network_arg.hpp"
#include "platform/sim/run.hpp"
#include "platform/tdma/sync_loader.hpp"

namespace sanvp::tdma {

// One slave: where its sync goes in the period, its path, and the terms of its bound.
struct SlaveSync {
  std::uint32_t node = 0;
  std::uint32_t pos = 0;             // slot of its sync within the period (the scheduler's)
  std::vector<std::uint8_t> route;   // master -> slave
  double tx_ps = 0;                  // derived transmission time: timed start to the slave's RTC read
  std::uint32_t tx_ticks = 0;        // the same in nominal ticks, rounded down (sync_run.cpp, derive_tx)
  double rel_ppm = 0;                // its oscillator's error minus the master's
  // The derived bound on |slave - master| after a sync and up to the next, and its terms.
  double resolution_ps = 0;          // one RTC tick
  double tx_error_ps = 0;            // transmission time at the nominal vs the actual rates, + 2 ps of tick-edge rounding
  double drift_ps = 0;               // drift over one sync period
  double bound_ps = 0;               // their sum
};

struct SyncPlan {
  std::string network;
  std::uint32_t master = 0;
  std::vector<std::uint32_t> nodes;          // NIC nodes, ascending
  std::vector<double> ppm;                   // per node index
  std::vector<fbs::ClockOfNode> clocks;      // per node index: slot 0 at `start`, actual tick
  double freq_mhz = 0, tick_ps = 0;          // nominal
  Time slot = 0, sync_period = 0;            // tdma.slot, tdma.sync_period x tdma.slot
  std::uint32_t slot_ticks = 0, period = 0, periods = 0;
  std::int64_t apply = -1;                   // tdma.sync.apply
  std::uint64_t start = 0;                   // RTC ticks at slot 0
  std::vector<SlaveSync> slaves;             // ascending node
  std::vector<SyncNodePlan> plans;           // per node index
  std::size_t index_of(std::uint32_t node) const;
};

// The rate at which a free-running slave's offset from the master (slave ahead: positive) grows,
// per unit of the master's time: 1 - f_master / f_slave.
double free_slope(double slave_ppm, double master_ppm);

// Reads tdma.*, tdma.sync.*, the link/switch/core timing and the oscillators (sets nN.osc.ppm
// and, unless given, nic.osc.freq = 2 MHz in `pv`), schedules the sync streams and derives
// every NIC's configuration. UserError for what cannot run.
SyncPlan plan_sync(ParamValues& pv, std::uint64_t seed, const NetworkArg& net);

// Each slave's transmission time (from its route) and the terms of its bound (sync_run.cpp).
void derive_tx(ParamValues& pv, SyncPlan& p);

// Runs the plan; results.tdma_sync holds the measurement (sync_report.hpp).
RunResult run_sync(ParamValues& pv, const RunOptions& opt, const NetworkArg& net);

}  // namespace sanvp::tdma
