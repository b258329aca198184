// Messaging benchmark between two hosts: ping-pong latency and streaming bandwidth for a range
// of message sizes, with a scoreboard on every byte, a latency breakdown from the message
// timeline, and the half-power message size. One simulation runs every size.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::host {

class NicNetwork;

struct MsgBenchOptions {
  int switches = 1;                     // switches between the two hosts (chain)
  std::vector<std::uint32_t> sizes;     // message sizes in bytes
  std::uint32_t mtu = 4096;             // fragment payload
  int iterations = 0;                   // ping-pong round trips per size (0: by size)
  bool pingpong = true, bandwidth = true;
  std::string vcd, trace;               // waves (empty: none)
  Time trace_from = 0, trace_to = kNever;
  std::string timeline;                 // per-message timeline JSON (empty: none)
  Time timeline_from = 0, timeline_to = kNever;  // what it records (platform/sim/timeline.hpp)
  bool timeline_fw = false;             // with a span per firmware function
  std::uint64_t seed = 1;
  int fw_trace_node = -1;               // instruction trace of this node's firmware (-1: none)
  std::string fw_trace_file;            // where to (empty: stderr)
  bool fw_profile = false;              // flat firmware profile of both NICs in the report
  Time limit = 10000 * kMs;             // simulated-time limit
  // Called once the network is built, before the run (`--debug` attaches the debugger here).
  std::function<void(NicNetwork&)> setup;
};

struct MsgBenchResult {
  nlohmann::json report;
  int exit_code = 0;
  std::string table;   // printable summary (stdout)
  std::string errors;  // why it failed and what each NIC was doing (stderr)
};

std::vector<std::uint32_t> default_msg_sizes();  // 4 B .. 1 MiB
MsgBenchResult run_msg_bench(ParamValues& pv, const fw::Image& image, const MsgBenchOptions& opt);

}  // namespace sanvp::host
