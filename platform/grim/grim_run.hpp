// A GRIM run: hosts with NICs running the GRIM firmware on a chain of switches, the seeded
// workload (grim_workload.hpp) on every host, then a drain period with no host activity and a
// leak check: every pool and send buffer back, nothing left to acknowledge. Link faults come
// from the parameters (fault.drop, fault.corrupt, fault.truncate, fault.cuts). Used by the tests
// (tb/grim) and `sanvp grim run`.
#pragma once
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/nic/recv_dma.hpp"
#include "platform/fw/image.hpp"
#include "platform/grim/grim_workload.hpp"

namespace sanvp::host {
class NicNetwork;
}

namespace sanvp::grim_host {

struct GrimRunOptions {
  WorkloadOptions work;
  GrimConfig grim;
  int switches = 1;
  Time limit = 2000 * kMs;   // simulated time for the workload
  Time drain = 0;            // after it, before the leak check (0: 20 x the retransmission timeout)
  bool check = true;         // the fabric's work-conservation monitor
  int fw_trace_node = -1;    // instruction trace of this node's firmware
  std::string fw_trace_file;
  bool fw_profile = false;
  std::function<void(host::NicNetwork&)> setup;  // tests: called once the network is built, before the run
};

struct NodeResult {
  NodeScore score;           // the host endpoint's (endpoint 0)
  std::vector<NodeScore> devices;  // device endpoints 1.. (WorkloadOptions::devices)
  std::uint64_t host_pio_after_open = 0, host_pio = 0;  // the host's PIO transactions once its endpoint was open, and at the end
  bool host_completion_waiting = false;  // a completion entry reached the host's queue that its program never took
  Stats stats{};             // the firmware's counters after the drain (read from SRAM)
  std::uint64_t instructions = 0, packets_sent = 0, packets_received = 0;
  bool leaked = false;       // a pool or send buffer not back after the drain
  std::string corruption_cause;  // corrupt deliveries here: "link_crc" (a damaged packet passed the CRC) or "protocol"
};

struct GrimRunResult {
  int exit_code = 0;         // 0 ok, 3 simulation failure (fault, hang, scoreboard error, leak)
  std::string error;
  std::vector<NodeResult> nodes;
  std::uint64_t planned = 0, delivered = 0;
  std::uint64_t am_unknown = 0, bogus_planned = 0;  // active messages naming an unknown handler: counted, and planned as such
  std::uint64_t credit_waits = 0;  // host credits: messages that had to wait for a credit
  std::string link_crc;      // nic.link_crc of the run
  // Probe (global knowledge): damaged packets the NICs' CRC passed, with every flit there
  // (undetected corruptions) or with flits lost (undetected losses; the firmware's length check
  // catches those); the first few of them.
  std::uint64_t damaged = 0, undetected = 0, undetected_lost = 0;
  std::vector<std::string> undetected_list;
  Time finished = 0, end = 0;
  nlohmann::json report;
  std::string table;
  std::uint64_t total(grim::Stat s) const;  // summed over the nodes
};

GrimRunResult run_grim(ParamValues& pv, const fw::Image& image, const GrimRunOptions& o);

// GRIM's NICs check packets with CRC-32 (nic.link_crc) unless the parameters say otherwise:
// CRC-8 lets damaged packets through (docs/grim.md, "Link CRC"). Returns the choice for reports.
std::string apply_grim_defaults(ParamValues& pv);
// One undetected damaged packet, for reports: id, source, length, time, flips.
std::string describe_undetected(const nic::RecvDma::Undetected& u);

// Starts the instruction trace of `node`'s firmware on `net` into `file` (stderr if empty;
// `holder` keeps the file open); `nodes` is how many the caller has.
void start_fw_trace(host::NicNetwork& net, int node, int nodes, const std::string& file, std::unique_ptr<std::ofstream>& holder);

}  // namespace sanvp::grim_host
