#include "platform/fw/dap_command.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <systemc>

#include "hw/base/asan_stack.hpp"
#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "hw/base/time.hpp"
#include "platform/fw/dap_server.hpp"
#include "platform/fw/fw_platform.hpp"

namespace sanvp::fw {

namespace {

struct DapOptions {
  bool stdio = false;
  std::string port;  // parsed by parse_int: 64-bit and range-checked
};

DapOptions& dap_opts() {
  static DapOptions o;
  return o;
}

}  // namespace

void add_dap_options(CLI::App* cmd) {
  auto& o = dap_opts();
  cmd->add_flag("--dap", o.stdio, "serve the Debug Adapter Protocol on stdin/stdout (for an editor) instead of reading commands");
  cmd->add_option("--dap-port", o.port, "serve the Debug Adapter Protocol to one client on 127.0.0.1:PORT (0: any free port, printed on stderr)");
}

bool dap_wanted() { return dap_opts().stdio || !dap_opts().port.empty(); }

int run_fw_dap(const std::string& image_path, const std::vector<std::string>& sets, const std::string& timeout_text) {
  const auto& o = dap_opts();
  if (o.stdio && !o.port.empty()) throw UserError("--dap and --dap-port exclude each other");
  const int port = o.port.empty() ? -1 : static_cast<int>(parse_int(o.port, "--dap-port", 0, 65535));
  ParamValues pv;
  apply_sets(pv, sets);
  const Time timeout = parse_time(timeout_text, "--timeout");
  const Image im = Image::load(image_path);
  // Everything the user can get wrong is checked before the transport takes over stdout; the
  // console is connected to the server once it exists (nothing is printed before sc_start).
  std::ostream console(nullptr);
  FwPlatform plat("nic", pv, im, &console);
  pv.check_all_used();
  auto transport = port < 0 ? DapTransport::stdio() : DapTransport::listen_tcp(port);
  DapServer server(*transport, image_path);
  console.rdbuf(server.console().rdbuf());
  DebugSession session(server);
  session.attach(*plat.core, im, 0);
  std::string note;
  if (server.configure(session)) {
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(timeout), sc_core::SC_PS));
    back_on_main_stack();
    const auto& r = plat.core->result();
    if (r.outcome == nic::LanaiCore::Outcome::kFault) note = r.fault_report;
    if (r.outcome == nic::LanaiCore::Outcome::kRunning && !server.terminated_by_client())
      note = fmt::format("error: firmware did not exit within {} of simulated time (--timeout)", format_time(timeout));
  }
  return server.finish(plat.core->result(), note);
}

}  // namespace sanvp::fw
