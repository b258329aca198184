#include "platform/fw/debug_attach.hpp"

#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/params.hpp"
#include "platform/fw/debugger.hpp"
#include "platform/sim/run.hpp"

namespace sanvp::fw {

namespace {

// One debugged run per process (SystemC cannot restart): the debugger and its script live here.
std::unique_ptr<std::ifstream> g_script;
std::unique_ptr<Debugger> g_debugger;

std::vector<int> parse_nodes(const std::string& text) {
  std::vector<int> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const int n = static_cast<int>(parse_int(item, "--debug node", 0, 1 << 20));
    for (int m : v)
      if (m == n) throw UserError(fmt::format("--debug: n{} is named twice", n));
    v.push_back(n);
  }
  if (v.empty()) throw UserError("--debug: expected node ids, e.g. --debug 1 or --debug 0,3");
  return v;
}

}  // namespace

void add_network_debug_options(CLI::App* app, NetworkDebugOptions& o) {
  app->add_option("--debug", o.nodes, "run these nodes' firmware under the debugger, e.g. 1 or 0,3 (a stop freezes the whole network)");
  app->add_option("--debug-commands", o.commands, "read the debugger's commands from this file (a scripted session; default stdin)");
}

std::function<void(RunAgents*)> network_debugger(const NetworkDebugOptions& o) {
  if (o.nodes.empty()) {
    if (!o.commands.empty()) throw UserError("--debug-commands needs --debug NODES");
    return {};
  }
  const std::vector<int> nodes = parse_nodes(o.nodes);
  if (!o.commands.empty()) read_file_limited(o.commands, "--debug-commands");  // a clear error before the run
  return [nodes, commands = o.commands](RunAgents* agents) {
    if (!agents) throw UserError(fmt::format("--debug: this run has no NICs (n{} runs no firmware)", nodes.front()));
    if (!commands.empty()) g_script = std::make_unique<std::ifstream>(commands);
    g_debugger = std::make_unique<Debugger>(g_script ? *g_script : std::cin, std::cout, g_script != nullptr, true);
    for (int n : nodes) {
      const auto [core, image] = agents->firmware(n);
      g_debugger->attach(*core, *image, n);
    }
  };
}

}  // namespace sanvp::fw
