// `sanvp fw debug IMAGE --dap | --dap-port N`: the debugger served over the Debug Adapter
// Protocol (dap_server.hpp) instead of the terminal.
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace sanvp::fw {

void add_dap_options(CLI::App* debug_command);  // --dap, --dap-port
bool dap_wanted();                              // after parsing: one of them was given
// Runs IMAGE on the bare firmware platform under a DAP server; the firmware's exit status.
int run_fw_dap(const std::string& image, const std::vector<std::string>& sets, const std::string& timeout);

}  // namespace sanvp::fw
