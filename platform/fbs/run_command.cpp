// `sanvp fbs run [TOPO [ARGS...]]`: the FBS firmware on every NIC of a network (default: one
// 8-port switch with 8 NICs), SSS on a single switch and HSS on a tree; the report gives the
// skew measured after every round beside the analytic bounds (platform/fbs/fbs_run.hpp).
#include <fmt/format.h>
#include <memory>

#include "hw/base/io.hpp"
#include "platform/fw/debug_attach.hpp"
#include "platform/fbs/fbs_run.hpp"
#include "platform/fbs/fbs_run_params.hpp"
#include "platform/fbs/fbs_subcommand.hpp"
#include "platform/sim/timeline_cli.hpp"
#include "platform/sim/wave_cli.hpp"

namespace sanvp::fbs {
namespace {

// Odr-use the declaration so `sanvp params` lists the run's fbs.* keys.
const void* const g_run_params = &FbsRunParams::declared;

struct RunCmdOptions {
  std::string topo = "single";
  std::vector<std::string> gen_args{"ports=8"};
  std::string kind = "auto", image;
  std::vector<std::string> sets;
  RunOptions opt;
  std::string window;  // --trace-window
  fw::NetworkDebugOptions debug;
};

int run_command(RunCmdOptions& o) {
  (void)g_run_params;
  if (!o.opt.report.empty()) check_output_path(o.opt.report, "--report");
  if (!o.opt.vcd.empty()) check_output_path(o.opt.vcd, "--vcd");
  if (!o.opt.probes.empty()) check_output_path(o.opt.probes, "--probes");
  if (!o.opt.fw_trace_file.empty()) check_output_path(o.opt.fw_trace_file, "--fw-trace-file");
  fw::hook_network_debugger(o.debug, o.opt);
  apply_trace_window(o.window, o.opt);
  ParamValues pv;
  apply_sets(pv, o.sets);
  RunInput in = make_run_input(load_network_arg(o.topo, o.gen_args), o.kind);
  in.firmware = o.image;
  o.opt.scenario = fmt::format("fbs-{}", in.schedule.kind);
  return run_fbs(pv, o.opt, in).exit_code;
}

}  // namespace

Subcommand run_subcommand(CLI::App& fbs) {
  auto o = std::make_shared<RunCmdOptions>();
  o->opt.report = "fbs_report.json";
  auto* sub = fbs.add_subcommand("run", "run the FBS firmware on every NIC and measure the skew of their slot clocks (default: 8 NICs on one switch)");
  sub->add_option("topo", o->topo, "topology or scenario file, or a generator type (then key=value arguments); default: single ports=8");
  sub->add_option("args", o->gen_args, "generator arguments key=value");
  sub->add_option("--kind", o->kind, "sss, hss or auto (sss on a single switch, hss otherwise)")->capture_default_str();
  sub->add_option("--set", o->sets, "override a parameter key=value (fbs.*, nic.osc.*, nN.osc.ppm, link.*, switch.*, fc.*; see sanvp params)");
  sub->add_option("--image", o->image, "firmware image (default builtin:fbs)");
  sub->add_option("--report", o->opt.report, "report file")->capture_default_str();
  auto* vcd = sub->add_option("--vcd", o->opt.vcd, "write waves to this VCD file (FST for a name ending in .fst, through GTKWave's vcd2fst)");
  sub->add_option("--probes", o->opt.probes, "write the probe timeline (slot boundaries, pauses) to this file: CSV if it ends in .csv, else JSON");
  add_timeline_options(sub, o->opt.timeline, "fbs run");
  add_wave_options(sub, vcd, o->opt, o->window);
  add_fw_trace_options(sub, o->opt.fw_trace_node, o->opt.fw_trace_file, o->opt.fw_trace_filter);
  fw::add_network_debug_options(sub, o->debug);
  add_seed_option(sub, o->opt.seed, "random seed (clock errors and start offsets)")->capture_default_str();
  sub->callback([o, sub] {
    if (sub->count("topo") && !sub->count("args")) o->gen_args.clear();
  });
  return {sub, [o] { return run_command(*o); }};
}

}  // namespace sanvp::fbs
