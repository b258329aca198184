// `sanvp grim`: a GRIM run (firmware/grim) with the scoreboard and leak check, under the link
// faults the parameters set (e.g. --set fault.drop=1e-4 --set fault.corrupt=1e-4); `sanvp grim
// --bench` measures latency and bandwidth between two hosts instead.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/cli/commands.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/fw/debug_attach.hpp"
#include "platform/grim/grim_bench.hpp"
#include "platform/grim/grim_experiment_command.hpp"
#include "platform/grim/grim_run.hpp"
#include "platform/host/nic_network.hpp"
#include "platform/sim/report.hpp"
#include "platform/sim/timeline_cli.hpp"
#include "platform/sim/timeline_nic.hpp"

namespace sanvp::grim_host {
namespace {

struct Opts {
  std::string image = fw::builtin_firmware_image("grim");
  GrimRunOptions run;
  std::string sizes = "1:8192", recv_delay, recv_start, limit, drain, trace_filter;
  std::vector<std::string> sets;
  std::string report = "grim_report.json";
  bool bench = false;
  std::string bench_sizes = "4,64,1K,4K,16K,64K,256K";
  int iterations = 8;  // one window of piggy-backed ACKs: their batch is in the average
  TimelineOptions timeline;
  fw::NetworkDebugOptions debug;
};

// Messages per sending endpoint: the plan holds every one of them up front.
constexpr std::int64_t kMaxMessages = 1000000;

Opts& opts() {
  static Opts o;
  return o;
}

void parse_sizes(const std::string& s, WorkloadOptions& w) {
  const auto colon = s.find(':');
  if (colon == std::string::npos) throw UserError(fmt::format("--sizes: '{}' is not MIN:MAX", s));
  const auto lo = parse_int(s.substr(0, colon), "--sizes"), hi = parse_int(s.substr(colon + 1), "--sizes");
  if (lo < 1 || hi < lo || hi > (16 << 20)) throw UserError(fmt::format("--sizes: '{}' is not a range within 1..16M", s));
  w.min_size = static_cast<std::uint32_t>(lo);
  w.max_size = static_cast<std::uint32_t>(hi);
}

int run_bench(ParamValues& pv, const fw::Image& im, Report& rep, const Report::Output& report) {
  GrimBenchOptions b;
  b.grim = opts().run.grim;
  b.switches = opts().run.switches;
  b.seed = opts().run.work.seed;
  b.fw_profile = opts().run.fw_profile;
  b.iterations = opts().iterations;
  b.fw_trace_node = opts().run.fw_trace_node;
  b.fw_trace_file = opts().run.fw_trace_file;
  for (std::size_t pos = 0; pos < opts().bench_sizes.size();) {
    const auto comma = opts().bench_sizes.find(',', pos);
    std::string t = opts().bench_sizes.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::int64_t mult = 1;
    if (!t.empty() && (t.back() == 'K' || t.back() == 'M')) { mult = t.back() == 'K' ? 1024 : 1 << 20; t.pop_back(); }
    // 64-bit and range-checked before the multiply, so no size wraps (at most 16M, as the bench accepts).
    b.sizes.push_back(static_cast<std::uint32_t>(parse_int(t, "--bench-sizes", 1, (16 << 20) / mult) * mult));
    pos = comma == std::string::npos ? opts().bench_sizes.size() : comma + 1;
  }
  const GrimBenchResult r = run_grim_bench(pv, im, b);
  std::cout << r.table;
  rep.write_json(report, r.report, 2);
  if (r.exit_code) rep.fail(r.exit_code);
  return rep.exit_code();
}

// --timeline: the run's setup hook watches the network and every NIC before the run starts.
std::unique_ptr<Timeline> start_timeline(Opts& o, Report& rep) {
  if (o.timeline.file.empty()) return nullptr;
  if (o.bench) throw UserError("--timeline: not with --bench (use sanvp msg --timeline for a ping-pong timeline)");
  rep.output(o.timeline.file, "--timeline");
  TimeWindow w;
  if (!o.timeline.window.empty()) w = parse_time_window(o.timeline.window, "--timeline-window");
  auto tl = std::make_unique<Timeline>(w.from, w.to);
  o.run.setup = [t = tl.get(), fw = o.timeline.firmware](host::NicNetwork& net) {
    t->observe_network(net.fabric());
    for (int h = 0; h < net.hosts(); ++h) {
      observe_nic(*t, h, net.nic(h));
      if (fw) observe_firmware(*t, h, net.nic(h).core());
    }
  };
  return tl;
}

// --debug: attached by the run's setup hook (after the timeline's), once the cores exist. The
// bench runs its own loop without that hook, so it refuses the debugger.
void start_debugger(Opts& o, const fw::Image& im) {
  if (!fw::check_network_debug(o.debug)) return;
  if (o.bench) throw UserError("--debug: not with --bench (debug the firmware in a GRIM run: sanvp grim --nodes 2 --debug N)");
  o.run.setup = [before = o.run.setup, &o, &im](host::NicNetwork& net) {
    if (before) before(net);
    fw::attach_network_debugger(o.debug, host::nic_firmware(net, im));
  };
}

// --senders and --channels are bounded by --nodes and --device-endpoints; both used to be cut to
// fit without a word (--senders 3 of 2 nodes ran 2; --channels 4 with a device gave the host 3
// under a header saying 4). The default --channels is cut to what the host keeps, and reported so.
void check_workload_options(const CLI::App& c, const WorkloadOptions& w) {
  if (w.senders > w.nodes) throw UserError(fmt::format("--senders: {} is outside 1..{} (the --nodes)", w.senders, w.nodes));
  const std::uint32_t host = grim::kChannels - w.devices;  // each device endpoint owns one channel
  if (c.count("--channels") && w.channels > host)
    throw UserError(fmt::format("--channels: {} is outside 1..{} (each of the {} --device-endpoints owns one of the {} channels)", w.channels,
                                host, w.devices, grim::kChannels));
}

int run(const CLI::App& c) {
  Opts& o = opts();
  check_workload_options(c, o.run.work);
  ParamValues pv;
  apply_sets(pv, o.sets);
  parse_sizes(o.sizes, o.run.work);
  if (!o.recv_delay.empty()) o.run.work.recv_delay = parse_time(o.recv_delay, "--recv-delay");
  if (!o.recv_start.empty()) o.run.work.recv_start = parse_time(o.recv_start, "--recv-start");
  if (!o.limit.empty()) o.run.limit = parse_time(o.limit, "--limit");
  if (!o.drain.empty()) o.run.drain = parse_time(o.drain, "--drain");
  if (!o.drain.empty() && o.run.drain == 0)  // 0 stands for the default inside GrimRunOptions
    throw UserError(fmt::format("--drain: '{}' must be above 0 (leave the option out for the default, 20 x --rto)", o.drain));
  check_config(o.run.grim);
  Report rep;
  const auto report = rep.output(o.report, "--report");
  const fw::Image im = fw::Image::load(o.image);
  const std::unique_ptr<Timeline> tl = start_timeline(o, rep);
  start_debugger(o, im);
  if (o.bench) return run_bench(pv, im, rep, report);
  const GrimRunResult r = run_grim(pv, im, o.run);
  std::cout << r.table << std::flush;
  if (!r.error.empty()) std::cerr << "error: " << r.error << "\n";
  rep.write_json(report, r.report, 2);
  if (tl) rep.write({o.timeline.file, "--timeline"}, tl->text(tl->other_data("grim", "", o.run.work.seed)));
  if (r.exit_code) rep.fail(r.exit_code);
  return fw::finish_network_debugger(rep.exit_code());
}

void add_protocol_options(CLI::App* c, GrimConfig& g) {
  add_int_option(c, "--mtu", g.mtu, 1, grim::kMaxMtu, "fragment payload bytes (1..49152, default 4096; GRIM used 48K = 49152)");
  add_int_option(c, "--rto", g.rto_us, 1, 10000000, "retransmission timeout in us (1..10000000, default 400)");
  add_int_option(c, "--backoff", g.backoff_us, 1, 10000000,
                 "first back-off after a NACK for want of a buffer, in us (1..10000000, default 20; doubles per NACK)");
  add_int_option(c, "--pool", g.pool, 1, grim::kMaxPool, "receive pool buffers per NIC (1..128, default 16)");
  add_int_option(c, "--window", g.window, 2, grim::kMaxWindow, "packets retained per (destination, channel), a power of two (2..16, default 8)");
  add_int_option(c, "--send-buffers", g.send_buffers, 1, grim::kMaxSendBuffers, "send buffers per NIC (1..64, default 16)");
}

const CommandRegistrar reg{"grim", [](CLI::App& app) -> CommandRun {
  auto* c = app.add_subcommand("grim", "GRIM reliable in-order messages (firmware/grim): scoreboard under link faults, or --bench");
  Opts& o = opts();
  WorkloadOptions& w = o.run.work;
  add_int_option(c, "--nodes", w.nodes, 2, grim::kMaxNodes, "hosts with NICs (2..16, default 2)");
  add_int_option(c, "--senders", w.senders, 1, grim::kMaxNodes, "nodes 0..N-1 send (1..--nodes, default: all)");
  add_int_option(c, "--channels", w.channels, 1, grim::kChannels,
                 "logical channels the host uses (1..4 minus --device-endpoints, default 2 or as many as the host keeps)");
  add_int_option(c, "--messages", w.messages, 1, kMaxMessages, "messages per sending node (1..1000000, default 100)");
  c->add_option("--sizes", o.sizes, "message sizes MIN:MAX in bytes, uniform (default 1:8192)");
  c->add_option("--recv-delay", o.recv_delay, "host work per received message before re-posting its buffer (e.g. 20us)");
  c->add_option("--recv-start", o.recv_start, "receivers post their first buffers this late (e.g. 200us)");
  add_int_option(c, "--host-credits", w.host_credits, 0, grim::kMaxPool,
                 "host-level credit flow control instead of GRIM's optimistic NI flow control: packets in flight per destination, "
                 "e.g. NI buffers / nodes (0..128, default 0: off)");
  add_int_option(c, "--device-endpoints", w.devices, 0, grim::kMaxEndpoints - 1,
                 "PCI device endpoints per node (0..3): each owns one channel (3, 2, 1) and sends and receives through the NIC without "
                 "the host CPU (default 0)");
  add_int_option(c, "--idle-hosts", w.idle_hosts, 0, (1 << grim::kMaxNodes) - 1,
                 "bit n: node n's host only opens its NIC and its device endpoints carry that node's traffic (e.g. 1: node 0's; default 0)");
  c->add_flag("--am", w.am, "active messages: handlers registered by name with node 0's host, which sends the table to every endpoint; "
                             "each message runs its handler at the receiving endpoint");
  add_int_option(c, "--am-unknown", w.am_bogus, 0, kMaxMessages,
                 "with --am: extra messages per sending endpoint naming a handler id nobody registered (counted errors, exit code 3)");
  add_int_option(c, "--switches", o.run.switches, 1, 64, "switches in the chain (1..64, default 1)");
  c->add_option("--limit", o.limit, "simulated-time limit for the workload (default 2s)");
  c->add_option("--drain", o.drain, "quiet time before the leak check, above 0 (default 20 x rto)");
  add_protocol_options(c, o.run.grim);
  c->add_flag("--bench", o.bench, "measure ping-pong latency and streaming bandwidth between two hosts instead");
  c->add_option("--bench-sizes", o.bench_sizes, "message sizes of --bench (default 4,64,1K,4K,16K,64K,256K)");
  add_int_option(c, "--iterations", o.iterations, 1, 1000000, "ping-pong round trips per size of --bench, after one warm-up (1..1000000, default 8)");
  c->add_option("--image", o.image, "firmware image (default: the built GRIM firmware)");
  c->add_option("--set", o.sets, "parameter override key=value (repeatable; see sanvp params)");
  c->add_option("--report", o.report, "report file (default grim_report.json)");
  add_seed_option(c, w.seed, "random seed (default 1)");
  add_fw_trace_node_options(c, o.run.fw_trace_node, o.run.fw_trace_file, "instruction trace of node N's firmware (with --bench: node 0 or 1)");
  c->add_flag("--fw-profile", o.run.fw_profile, "print a flat per-function firmware profile of each NIC");
  add_timeline_options(c, o.timeline, "grim");
  fw::add_network_debug_options(c, o.debug);
  return [c, exp = experiment_subcommand(*c)]() { return exp.app->parsed() ? exp.run() : c->parsed() ? run(*c) : -1; };
}};

}  // namespace
}  // namespace sanvp::grim_host
