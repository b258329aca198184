#include "platform/tdma/run_command.hpp"

#include <fmt/format.h>
#include <memory>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/fw/debug_attach.hpp"
#include "hw/base/params.hpp"
#include "platform/tdma/tdma_run.hpp"
#include "platform/tdma/control_net_params.hpp"
#include "platform/tdma/tdma_run_params.hpp"
#include "platform/sim/timeline_cli.hpp"
#include "platform/sim/wave_cli.hpp"

namespace sanvp::tdma {
namespace {

// Odr-use the declaration so `sanvp params` lists tdma.run.*.
const void* const g_run_params = &TdmaRunParams::declared;
const void* const g_ctl_params = &TdmaCtlParams::declared;

struct RunCmdOptions {
  std::string streams, topo, cycles, margin, best_effort;
  std::vector<std::string> gen_args, sets;
  bool no_sync = false, early = false, no_early = false, progress = false;
  RunOptions opt;
  std::string window;  // --trace-window
  fw::NetworkDebugOptions debug;
};

RunKnobs knobs_of(const RunCmdOptions& o) {
  RunKnobs k;
  if (!o.cycles.empty()) k.cycles = parse_int(o.cycles, "--cycles", 1, 1000000);
  if (!o.margin.empty()) k.margin = parse_time(o.margin, "--margin", kNs);
  if (!o.best_effort.empty()) {
    const double l = parse_real(o.best_effort, "--best-effort");
    if (!(l >= 0 && l <= 1)) throw UserError(fmt::format("--best-effort: {} is outside 0..1 (a fraction of the free slots)", o.best_effort));
    k.best_effort = l;
  }
  if (o.no_sync) k.sync = false;
  if (o.early && o.no_early) throw UserError("--early and --no-early: give one of them");
  if (o.early) k.early = true;
  if (o.no_early) k.early = false;
  k.progress = o.progress;
  return k;
}

int run_command(RunCmdOptions& o) {
  (void)g_run_params;
  (void)g_ctl_params;
  for (const auto& [path, flag] :
       {std::pair{o.opt.report, "--report"}, {o.opt.vcd, "--vcd"}, {o.opt.probes, "--probes"}, {o.opt.fw_trace_file, "--fw-trace-file"}})
    if (!path.empty()) check_output_path(path, flag);
  fw::hook_network_debugger(o.debug, o.opt);
  apply_trace_window(o.window, o.opt);
  const RunKnobs k = knobs_of(o);
  ParamValues pv;
  apply_sets(pv, o.sets);
  const StreamFile file = load_stream_file(o.streams);
  const NetworkArg net = load_network_arg(o.topo, o.gen_args);
  o.opt.scenario = "tdma-run";
  return run_tdma(pv, o.opt, net, file, k).exit_code;
}

}  // namespace

SyncSubcommand run_subcommand(CLI::App& tdma) {
  auto o = std::make_shared<RunCmdOptions>();
  o->opt.report = "tdma_run_report.json";
  auto* sub = tdma.add_subcommand("run", "schedule the streams with the clock-sync streams, run the TDMA firmware on every NIC (sync, "
                                         "reserved messages by timed sends in their slots, early sending) and measure per stream "
                                         "deadline misses, latency, jitter, blocking and the first collision");
  sub->add_option("streams", o->streams, "stream file (YAML: docs/tdma.md), e.g. platform/tdma/appendix-a.streams.yaml")->required();
  sub->add_option("topo", o->topo, "topology or scenario file, or a generator type (then key=value arguments), e.g. tdma-a")->required();
  sub->add_option("args", o->gen_args, "generator arguments key=value");
  sub->add_option("--cycles", o->cycles, "TDMA cycles to run (default tdma.run.cycles = 100)");
  sub->add_flag("--no-sync", o->no_sync, "send the sync packets but never apply them: the clocks drift apart");
  sub->add_flag("--early", o->early, "early sending (thesis 4.4; the default, tdma.run.early)");
  sub->add_flag("--no-early", o->no_early, "no early sending: each message starts at its slot start");
  sub->add_option("--margin", o->margin, "T_margin of early sending, a time (bare number: ns); default tdma.run.margin = 1us");
  sub->add_option("--best-effort", o->best_effort, "best-effort load 0..1 (fraction of the eligible free slots)");
  sub->add_flag("--progress", o->progress, "a progress bar on stderr (long runs: cycles done, wall time, time left)");
  sub->add_option("--set", o->sets, "override a parameter key=value (tdma.run.*, tdma.sync.*, tdma.slot, nic.osc.*, link.*, switch.*)");
  sub->add_option("--report", o->opt.report, "report file (JSON)")->capture_default_str();
  CLI::Option* vcd = sub->add_option("--vcd", o->opt.vcd, "write waves to this VCD file (FST for a name ending in .fst, through GTKWave's vcd2fst)");
  add_wave_options(sub, vcd, o->opt, o->window);
  sub->add_option("--probes", o->opt.probes, "write the probe timeline to this file: CSV if it ends in .csv, else JSON");
  add_timeline_options(sub, o->opt.timeline, "tdma run");
  add_fw_trace_options(sub, o->opt.fw_trace_node, o->opt.fw_trace_file, o->opt.fw_trace_filter);
  fw::add_network_debug_options(sub, o->debug);
  add_seed_option(sub, o->opt.seed, "random seed (the order of the oscillator errors)")->capture_default_str();
  return {sub, [o] { return run_command(*o); }};
}

}  // namespace sanvp::tdma
