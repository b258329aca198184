// bench_btin: figures of the BTIN barrier on the paper's running example and the paper's
// analytical model, for the parameters given (default: the paper's t_s = 2 us, t_p = 20 ns,
// t_r = 300 ns).   bench_btin [--set btin.t_s=10us ...]   (same as `sanvp btin`)
#include <CLI/CLI.hpp>
#include <iostream>
#include <systemc>  // declares sc_main extern "C"

#include "platform/barrier/btin_report.hpp"
#include "platform/core/error.hpp"

// sc_main: the binary links SystemC (through sanvp_core), whose library owns main().
int sc_main(int argc, char** argv) {
  CLI::App app{"BTIN barrier figures"};
  std::vector<std::string> sets;
  app.add_option("--set", sets, "parameter override key=value (btin.t_s, btin.t_p, btin.t_r, btin.t_root)");
  CLI11_PARSE(app, argc, argv);
  try {
    sanvp::ParamValues pv;
    for (const auto& s : sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos) throw sanvp::UserError("--set needs key=value: " + s);
      pv.set(s.substr(0, eq), s.substr(eq + 1), "--set");
    }
    std::cout << sanvp::barrier::btin_example_report(sanvp::barrier::LatencyParams::from_params(pv, ""));
  } catch (const sanvp::UserError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return sanvp::kExitUserError;
  }
  return 0;
}
