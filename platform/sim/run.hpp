// Runs one simulation: builds the network, runs it with a progress watchdog, and writes the
// summary, report.json and (optionally) VCD. The built-in default scenario lives here too.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>

#include "hw/base/params.hpp"
#include "platform/sim/network.hpp"
#include "hw/nic/probe.hpp"
#include "platform/sim/packet_audit.hpp"
#include "platform/sim/run_params.hpp"
#include "platform/sim/timeline.hpp"

namespace sanvp {

class RunAgents;
namespace nic { class LanaiCore; }
namespace fw { struct Image; }

struct RunOptions {
  std::uint64_t seed = 1;
  std::string scenario = "default";  // name shown in reports
  std::string report = "report.json";
  std::string vcd;                   // empty: no waves
  std::string probes;                // probe timeline file (.csv or JSON); empty: none
  std::string trace;                 // module patterns, empty = all
  Time trace_from = 0, trace_to = kNever;
  bool print_summary = true;
  bool check = false;                // work-conservation monitor (fabric_monitor.hpp)
  // Instruction trace of one NIC's firmware (time, pc, symbol, disassembly, register writes).
  int fw_trace_node = -1;            // -1: none
  std::string fw_trace_file;         // empty: stderr
  std::string fw_trace_filter;       // functions or pc ranges, "main,0x100-0x200"; empty: all
  // Called with the run's agents (nullptr: no NICs) once they are built, before the run starts:
  // attaches the firmware debugger of `--debug` (platform/fw/debug_attach.hpp). Empty: none.
  std::function<void(RunAgents*)> attach_tools;
  // Called with the run's exit code once the report is written and the summary printed; returns
  // the process's exit code. The DAP server sends `exited` and `terminated` here. Empty: none.
  std::function<int(int exit_code)> end_tools;
  TimelineOptions timeline;          // --timeline (platform/sim/timeline.hpp); its window defaults to the trace window
};

// Nodes driven by something other than test traffic: hosts with NICs running firmware and host
// applications (platform/host). run_simulation only sees this interface; the run ends when the
// test traffic is done and finished() holds.
class RunAgents {
 public:
  virtual ~RunAgents() = default;
  // After routes are installed and before the run: load route tables, start applications.
  virtual void start(Network& net) = 0;
  virtual void declare_traces() = 0;
  // Every NIC's probes go to `sink` (hw/nic/probe.hpp); agents without NICs ignore it.
  virtual void attach_probes(const nic::ProbeSink& sink) { (void)sink; }
  // --timeline: every NIC's DMA transfers (and with `firmware` its functions) go to `tl`.
  virtual void attach_timeline(Timeline& tl, bool firmware) { (void)tl, (void)firmware; }
  virtual bool finished() const = 0;           // every host application has finished
  virtual Time finished_at() const = 0;        // when the last one finished (0 if none ran)
  virtual std::string fault() = 0;             // non-empty: a firmware fault, the run stops
  virtual std::uint64_t progress() const = 0;  // changes whenever a NIC or host does anything
  // Something will happen at a known time (a NIC sleeps on an armed timer): quiet is not a stall.
  virtual bool waiting_on_time() const { return false; }
  virtual std::string describe() = 0;          // what every NIC and application is doing (hang/limit reports)
  // Traces node `node`'s firmware to `out` (filter as --fw-trace-filter); a UserError when the
  // node has no NIC.
  virtual void trace_firmware(int node, std::ostream* out, const std::string& filter);
  // Node `node`'s NIC core and the image it runs, for the firmware debugger (`--debug`); a
  // UserError when the node has no NIC.
  virtual std::pair<nic::LanaiCore*, const fw::Image*> firmware(int node);
  // Fills results["apps"] and results["nics"]; returns the lines of the printed summary.
  virtual std::string results(nlohmann::json& results) = 0;
  virtual bool errors() const = 0;             // an application found a bad message
  // Adds each NIC's injected packets, the ones in its buffers and those it consumed (packet_audit.hpp).
  virtual void audit(PacketAudit& audit, Time now) = 0;
};

struct RunSpec {
  // Declares switches, nodes and links on the network (before build()).
  std::function<void(Network&)> topology;
  // Sets routes after build(); default: shortest paths.
  std::function<void(Network&)> routes;
  // Extra setup after routes (explicit injections, pauses); default: the configured traffic.
  std::function<void(Network&)> traffic;
  // Called once the kernel is elaborated, right before the first step: the run proper starts
  // here (the bench's measured phase; elaborating 1024 switches' processes is setup).
  std::function<void(Network&)> on_start;
  // Called after the run, before statistics (scoreboards in tests, firmware exit codes).
  std::function<void(Network&)> on_finish;
  // on_finish reads every packet's record (net.packets().all()): keep them all. By default a run
  // frees each packet's record once it is delivered intact (PacketTable::release).
  bool keep_packet_records = false;
  // Builds agents on the declared network (Network::set_external), before build(); optional.
  std::function<std::unique_ptr<RunAgents>(Network&, ParamValues&, std::uint64_t seed)> agents;
  // Also gets every NIC probe (a command that analyses the timeline itself, e.g. FBS skew).
  nic::ProbeSink probe_sink;
  // With --vcd: declares a command's own trace signals (after the network's and the agents',
  // before the header is written); optional. FBS: the slot clock, nN.fbs.slot.
  std::function<void()> declare_traces;
  // With --vcd: the VCD is written only up to this long before the current simulated time, so a
  // command may record a change up to this far in the past (FBS: a slot boundary is known only at
  // its probe, shortly after it). 0 (default): written up to now, as every model needs.
  Time trace_hold = 0;
  // Adds a command's own results to results{} after the run; returns lines for the summary.
  std::function<std::string(nlohmann::json& results)> results;
  nlohmann::json scenario_json;  // effective scenario description for the report
};


// Fault: a NIC's firmware faulted; Limit: host applications had not finished at sim.limit.
enum class RunStatus { Completed, NotDrained, Hung, Fault, Limit };

struct RunResult {
  RunStatus status = RunStatus::Completed;
  nlohmann::json report;
  int exit_code = 0;
};

// Default scenario: one switch.ports-port switch with a node on every port, uniform traffic.
RunSpec default_scenario(ParamValues& pv);
RunResult run_simulation(ParamValues& pv, const RunOptions& opt, const RunSpec& spec);

}  // namespace sanvp
