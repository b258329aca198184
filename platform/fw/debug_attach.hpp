// `--debug NODE[,NODE...] [--debug-commands FILE]` for the commands that run NIC firmware in a
// network (`sanvp run`): the terminal debugger (debugger.hpp) on those nodes' cores, attached
// through RunOptions::attach_tools. A stop on any of them freezes the whole simulation.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace sanvp {
class RunAgents;
}

namespace sanvp::fw {

struct NetworkDebugOptions {
  std::string nodes;     // "1" or "1,3"; empty: no debugger
  std::string commands;  // script file; empty: stdin
};

void add_network_debug_options(CLI::App* app, NetworkDebugOptions& o);

// The attach_tools hook for `o` (empty when o.nodes is empty). The debugger lives until the
// process ends, as the cores do.
std::function<void(RunAgents*)> network_debugger(const NetworkDebugOptions& o);

}  // namespace sanvp::fw
