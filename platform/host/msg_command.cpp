// `sanvp msg`: ping-pong latency and streaming bandwidth between two hosts with LANai-like
// NICs running the messaging firmware, through a chain of switches.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/fw/debug_attach.hpp"
#include "platform/host/nic_network.hpp"
#include "firmware/msg/msg_proto.h"
#include "platform/host/msg_bench.hpp"
#include "platform/sim/report.hpp"
#include "platform/sim/timeline_cli.hpp"

namespace sanvp::host {
namespace {

struct Opts {
  std::string image = fw::builtin_firmware_image("msg");
  int switches = 1;
  std::string sizes;
  std::uint32_t mtu = 4096;
  int iterations = 0;  // 0: by size
  std::string only;
  std::vector<std::string> sets;
  std::string report = "msg_report.json", vcd, trace, window;
  TimelineOptions timeline;
  std::uint64_t seed = 1;
  int fw_trace_node = -1;
  std::string fw_trace_file;
  bool fw_profile = false;
  fw::NetworkDebugOptions debug;
};

Opts& opts() {
  static Opts o;
  return o;
}

std::uint32_t parse_size(const std::string& t) {
  std::string s = t;
  std::uint64_t mult = 1;
  auto ends = [&](const char* suf) {
    const std::size_t n = std::char_traits<char>::length(suf);
    if (s.size() > n && s.compare(s.size() - n, n, suf) == 0) { s.resize(s.size() - n); return true; }
    return false;
  };
  if (ends("KiB") || ends("K") || ends("k")) mult = 1024;
  else if (ends("MiB") || ends("M")) mult = 1u << 20;
  else ends("B");
  const auto v = parse_int(s, "--sizes");
  if (v <= 0 || static_cast<std::uint64_t>(v) * mult > (64u << 20)) throw UserError(fmt::format("--sizes: '{}' is outside 1 B..64 MiB", t));
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) * mult);
}

int run() {
  auto& o = opts();
  ParamValues pv;
  apply_sets(pv, o.sets);
  MsgBenchOptions m;
  m.switches = o.switches;
  m.mtu = o.mtu;
  m.iterations = o.iterations;
  m.seed = o.seed;
  m.vcd = o.vcd;
  m.trace = o.trace;
  m.timeline = o.timeline.file;
  m.fw_trace_node = o.fw_trace_node;
  m.fw_trace_file = o.fw_trace_file;
  m.fw_profile = o.fw_profile;
  if (!o.window.empty()) {
    const TimeWindow w = parse_time_window(o.window, "--trace-window");
    m.trace_from = m.timeline_from = w.from;
    m.trace_to = m.timeline_to = w.to;
    // The window of the waves and the timeline: alone it did nothing.
    if (o.vcd.empty() && o.timeline.file.empty()) throw UserError("--trace-window requires --vcd or --timeline");
  }
  if (!o.timeline.window.empty()) {
    const TimeWindow w = parse_time_window(o.timeline.window, "--timeline-window");
    m.timeline_from = w.from;
    m.timeline_to = w.to;
  }
  m.timeline_fw = o.timeline.firmware;
  if (o.only == "pingpong") m.bandwidth = false;
  else if (o.only == "bandwidth") m.pingpong = false;
  else if (!o.only.empty()) throw UserError(fmt::format("--only: '{}' (pingpong or bandwidth)", o.only));
  if (o.sizes.empty()) {
    m.sizes = default_msg_sizes();
  } else {
    for (std::size_t pos = 0; pos < o.sizes.size();) {
      const auto comma = o.sizes.find(',', pos);
      m.sizes.push_back(parse_size(o.sizes.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
      pos = comma == std::string::npos ? o.sizes.size() : comma + 1;
    }
  }
  Report rep;
  const auto report = rep.output(o.report, "--report");
  for (const auto& [path, what] : {std::pair{o.vcd, "--vcd"}, {o.timeline.file, "--timeline"}, {o.fw_trace_file, "--fw-trace-file"}})
    rep.output(path, what);  // written by the bench as it runs; checked before it starts
  const fw::Image im = fw::Image::load(o.image);
  if (fw::check_network_debug(o.debug))
    m.setup = [&o, &im](NicNetwork& net) { fw::attach_network_debugger(o.debug, nic_firmware(net, im)); };
  MsgBenchResult r = run_msg_bench(pv, im, m);
  std::cout << r.table << std::flush;
  std::cerr << r.errors;
  if (r.exit_code == 0 || r.report.contains("error")) rep.write_json(report, r.report, 2);
  if (r.exit_code != 0) rep.fail(r.exit_code);
  return fw::finish_network_debugger(rep.exit_code());
}

const CommandRegistrar reg{"msg", [](CLI::App& app) -> CommandRun {
  auto* c = app.add_subcommand("msg", "ping-pong latency and bandwidth between two hosts with LANai-like NICs (messaging firmware)");
  auto& o = opts();
  add_int_option(c, "--switches", o.switches, 1, 64, "switches in the chain between the two hosts (1..64, default 1)");
  c->add_option("--sizes", o.sizes, "message sizes up to 64M, e.g. 4,64,1K,1M (default 4 B .. 1 MiB; above 16M raise host.memory)");
  add_int_option(c, "--mtu", o.mtu, 1, msg::kMaxMtu, "fragment payload bytes (1..49152, default 4096; GRIM used 48K = 49152)");
  // From 1: 0 would silently mean "the default by size".
  add_int_option(c, "--iterations", o.iterations, 1, 1000000, "ping-pong round trips per size (1..1000000, default: 8, 4 or 2 by size)");
  c->add_option("--only", o.only, "pingpong or bandwidth (default both)");
  c->add_option("--image", o.image, "firmware image (default: the built messaging firmware)");
  c->add_option("--set", o.sets, "parameter override key=value (repeatable; see sanvp params)");
  c->add_option("--report", o.report, "report file (default msg_report.json)");
  auto* vcd = c->add_option("--vcd", o.vcd, "write waves to this VCD file (FST for a name ending in .fst, through GTKWave's vcd2fst)");
  c->add_option("--trace", o.trace, "modules to trace, e.g. 'n0*,sw0*'")->needs(vcd);  // alone it did nothing
  c->add_option("--trace-window", o.window, "time window FROM:TO of the waves");
  add_timeline_options(c, o.timeline, "msg");
  add_seed_option(c, o.seed, "random seed (default 1)");
  add_fw_trace_node_options(c, o.fw_trace_node, o.fw_trace_file);
  c->add_flag("--fw-profile", o.fw_profile, "print a flat per-function firmware profile of each NIC");
  fw::add_network_debug_options(c, o.debug);
  return [c]() { return c->parsed() ? run() : -1; };
}};

}  // namespace
}  // namespace sanvp::host
