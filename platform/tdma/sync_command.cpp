#include "platform/tdma/sync_command.hpp"

#include <fmt/format.h>
#include <memory>

#include "hw/base/io.hpp"
#include "platform/fw/debug_attach.hpp"
#include "platform/tdma/sync_run.hpp"
#include "platform/tdma/sync_run_params.hpp"
#include "platform/sim/timeline_cli.hpp"
#include "platform/sim/wave_cli.hpp"

namespace sanvp::tdma {
namespace {

// Odr-use the declaration so `sanvp params` lists tdma.sync.*.
const void* const g_sync_params = &TdmaSyncParams::declared;

struct SyncCmdOptions {
  std::string topo = "single";
  std::vector<std::string> gen_args{"ports=8"};
  std::vector<std::string> sets;
  RunOptions opt;
  std::string window;  // --trace-window
  fw::NetworkDebugOptions debug;
};

int sync_command(SyncCmdOptions& o) {
  (void)g_sync_params;
  for (const auto& [path, flag] :
       {std::pair{o.opt.report, "--report"}, {o.opt.vcd, "--vcd"}, {o.opt.probes, "--probes"}, {o.opt.fw_trace_file, "--fw-trace-file"}})
    if (!path.empty()) check_output_path(path, flag);
  fw::hook_network_debugger(o.debug, o.opt);
  apply_trace_window(o.window, o.opt);
  ParamValues pv;
  apply_sets(pv, o.sets);
  const NetworkArg net = load_network_arg(o.topo, o.gen_args);
  o.opt.scenario = "tdma-sync";
  return run_sync(pv, o.opt, net).exit_code;
}

}  // namespace

SyncSubcommand sync_subcommand(CLI::App& tdma) {
  auto o = std::make_shared<SyncCmdOptions>();
  o->opt.report = "tdma_sync_report.json";
  auto* sub = tdma.add_subcommand("sync", "run the TDMA clock-synchronization firmware on every NIC and measure the slaves' offsets "
                                          "from the master (default: 8 NICs on one switch)");
  sub->add_option("topo", o->topo, "topology or scenario file, or a generator type (then key=value arguments); default: single ports=8");
  sub->add_option("args", o->gen_args, "generator arguments key=value");
  sub->add_option("--set", o->sets, "override a parameter key=value (tdma.sync.*, tdma.slot, tdma.sync_period, nic.osc.freq, "
                                    "nN.osc.ppm, link.*, switch.*; see sanvp params)");
  sub->add_option("--report", o->opt.report, "report file (JSON)")->capture_default_str();
  CLI::Option* vcd = sub->add_option("--vcd", o->opt.vcd, "write waves to this VCD file (FST for a name ending in .fst, through GTKWave's vcd2fst)");
  add_wave_options(sub, vcd, o->opt, o->window);
  sub->add_option("--probes", o->opt.probes, "write the probe timeline to this file: CSV if it ends in .csv, else JSON");
  add_timeline_options(sub, o->opt.timeline, "tdma sync");
  add_fw_trace_options(sub, o->opt.fw_trace_node, o->opt.fw_trace_file, o->opt.fw_trace_filter);
  fw::add_network_debug_options(sub, o->debug);
  add_seed_option(sub, o->opt.seed, "random seed (the order of the oscillator errors)")->capture_default_str();
  sub->callback([o, sub] {
    if (sub->count("topo") && !sub->count("args")) o->gen_args.clear();
  });
  return {sub, [o] { return sync_command(*o); }};
}

}  // namespace sanvp::tdma
