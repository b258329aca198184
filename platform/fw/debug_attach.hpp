// `--debug NODE[,NODE...] [--debug-commands FILE | --dap | --dap-port P]` for the commands that
// run NIC firmware in a network (`run`, `msg`, `fbs run`, `tdma run`, `tdma sync`, `grim`): the
// terminal debugger (debugger.hpp) or the DAP server (dap_server.hpp, one thread per node) on
// those nodes' cores. A stop on any of them freezes the whole simulation.
//
// Commands that run through run_simulation hook it with hook_network_debugger; the others call
// attach_network_debugger once their cores exist and finish_network_debugger after their report.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>

namespace sanvp {
struct RunOptions;
namespace nic { class LanaiCore; }
}  // namespace sanvp

namespace sanvp::fw {

struct Image;

struct NetworkDebugOptions {
  std::string nodes;     // "1" or "1,3"; empty: no debugger
  std::string commands;  // script file; empty: stdin
  bool dap = false;      // the Debug Adapter Protocol on stdin/stdout
  std::string dap_port;  // ... or on 127.0.0.1:PORT (parsed as a 64-bit integer, range-checked)
  bool active() const { return !nodes.empty(); }
};

void add_network_debug_options(CLI::App* app, NetworkDebugOptions& o);

// Checks the options (a UserError, before anything runs); false without --debug.
bool check_network_debug(const NetworkDebugOptions& o);

// Node n's core and the image it runs; a UserError when n has no NIC in this run.
using FirmwareOf = std::function<std::pair<nic::LanaiCore*, const Image*>(int node)>;

// Attaches the debugger to the --debug nodes (before the run); with DAP, serves the client's
// configuration (initialize .. configurationDone) before returning. Nothing without --debug.
// The debugger lives until the process ends, as the cores do (one debugged run per process).
void attach_network_debugger(const NetworkDebugOptions& o, const FirmwareOf& firmware);

// After the run's report is written: with DAP, `exited` (the run's exit code) and `terminated`,
// then serves the client until it disconnects. Returns the process's exit code (`exit_code`).
int finish_network_debugger(int exit_code);

// Sets opt.attach_tools and opt.end_tools for o (nothing without --debug).
void hook_network_debugger(const NetworkDebugOptions& o, RunOptions& opt);

}  // namespace sanvp::fw
