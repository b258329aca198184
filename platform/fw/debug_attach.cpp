#include "platform/fw/debug_attach.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/params.hpp"
#include "platform/fw/dap_server.hpp"
#include "platform/fw/debugger.hpp"
#include "platform/sim/run.hpp"

namespace sanvp::fw {

namespace {

// One debugged run per process (SystemC cannot restart): the front end and its input live here,
// as long as the cores they are attached to.
std::unique_ptr<std::ifstream> g_script;
std::unique_ptr<Debugger> g_debugger;
std::unique_ptr<DapTransport> g_transport;
std::unique_ptr<DapServer> g_server;
std::unique_ptr<DebugSession> g_session;  // the DAP server's (the terminal debugger owns its own)

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

int dap_port(const NetworkDebugOptions& o) { return o.dap_port.empty() ? -1 : static_cast<int>(parse_int(o.dap_port, "--dap-port", 0, 65535)); }

void attach_dap(const NetworkDebugOptions& o, const std::vector<int>& nodes, const FirmwareOf& firmware) {
  std::vector<std::pair<nic::LanaiCore*, const Image*>> cores;
  for (int n : nodes) cores.push_back(firmware(n));  // every node checked before the transport takes stdout
  const int port = dap_port(o);
  std::fflush(stdout);
  g_transport = port < 0 ? DapTransport::stdio() : DapTransport::listen_tcp(port);
  g_server = std::make_unique<DapServer>(*g_transport, std::string(), true);
  g_session = std::make_unique<DebugSession>(*g_server);
  for (std::size_t i = 0; i < nodes.size(); ++i) g_session->attach(*cores[i].first, *cores[i].second, nodes[i]);
  if (!g_server->configure(*g_session)) throw UserError("--dap: the client disconnected before the run started");
}

}  // namespace

void add_network_debug_options(CLI::App* app, NetworkDebugOptions& o) {
  app->add_option("--debug", o.nodes, "run these nodes' firmware under the debugger, e.g. 1 or 0,3 (a stop freezes the whole network)");
  app->add_option("--debug-commands", o.commands, "read the debugger's commands from this file (a scripted session; default stdin)");
  app->add_flag("--dap", o.dap, "with --debug: serve the Debug Adapter Protocol on stdin/stdout (one thread per node; the summary goes to stderr)");
  app->add_option("--dap-port", o.dap_port, "with --debug: serve the Debug Adapter Protocol to one client on 127.0.0.1:PORT (0: any free port, printed on stderr)");
}

bool check_network_debug(const NetworkDebugOptions& o) {
  const bool dap = o.dap || !o.dap_port.empty();
  if (!o.active()) {
    if (!o.commands.empty()) throw UserError("--debug-commands needs --debug NODES");
    if (dap) throw UserError(fmt::format("{} needs --debug NODES", o.dap ? "--dap" : "--dap-port"));
    return false;
  }
  parse_nodes(o.nodes);
  if (o.dap && !o.dap_port.empty()) throw UserError("--dap and --dap-port exclude each other");
  if (dap && !o.commands.empty()) throw UserError("--debug-commands and --dap/--dap-port exclude each other");
  dap_port(o);
  if (!o.commands.empty()) read_file_limited(o.commands, "--debug-commands");  // a clear error before the run
  return true;
}

void attach_network_debugger(const NetworkDebugOptions& o, const FirmwareOf& firmware) {
  if (!check_network_debug(o)) return;
  const std::vector<int> nodes = parse_nodes(o.nodes);
  if (o.dap || !o.dap_port.empty()) return attach_dap(o, nodes, firmware);
  if (!o.commands.empty()) g_script = std::make_unique<std::ifstream>(o.commands);
  g_debugger = std::make_unique<Debugger>(g_script ? *g_script : std::cin, std::cout, g_script != nullptr, true);
  for (int n : nodes) {
    const auto [core, image] = firmware(n);
    g_debugger->attach(*core, *image, n);
  }
}

int finish_network_debugger(int exit_code) {
  std::fflush(stdout);  // the summary (on stderr under DAP over stdio) before the last events
  std::cout.flush();
  return g_server ? g_server->finish_network(exit_code) : exit_code;
}

void hook_network_debugger(const NetworkDebugOptions& o, RunOptions& opt) {
  if (!check_network_debug(o)) return;
  opt.attach_tools = [o](RunAgents* agents) {
    if (!agents) throw UserError(fmt::format("--debug: this run has no NICs (n{} runs no firmware)", parse_nodes(o.nodes).front()));
    attach_network_debugger(o, [agents](int n) { return agents->firmware(n); });
  };
  opt.end_tools = [](int exit_code) { return finish_network_debugger(exit_code); };
}

}  // namespace sanvp::fw
