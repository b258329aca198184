// barrier_lockstep: run the RTL <-> SystemC lockstep of the barrier unit from the command line,
// e.g. to reproduce a CI failure with its seed or to get waves of a longer window.
//   barrier_lockstep [--cycles N] [--seed S] [--chaos] [--regs 4|5|6] [--vcd FILE] [--vcd-cycles N]
// Exit 0: identical; 1: mismatch or scoreboard failure (report on stderr); 2: bad arguments.
#include <CLI/CLI.hpp>
#include <iostream>
#include <systemc>

#include "tb/barrier/lockstep.hpp"

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sanvp::barrier::tb::LockstepOptions o;
  int regs = 4;
  CLI::App app{"barrier unit RTL <-> SystemC lockstep"};
  app.add_option("--cycles", o.cycles, "clock cycles to compare");
  app.add_option("--seed", o.seed, "stimulus seed")->capture_default_str();
  app.add_flag("--chaos", o.chaos, "unconstrained random stimulus instead of the barrier protocol");
  app.add_option("--regs", regs, "RTL build: 4 or 5 registers (8 ports), 6 (16 ports)")->check(CLI::IsMember({4, 5, 6}));
  app.add_option("--vcd", o.vcd, "write RTL waves to this VCD file");
  app.add_option("--vcd-cycles", o.vcd_cycles, "cycles covered by the VCD");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  namespace bt = sanvp::barrier::tb;
  const auto r = regs == 4 ? bt::run_lockstep_r4(o) : regs == 5 ? bt::run_lockstep_r5(o) : bt::run_lockstep_p16(o);
  if (!r.ok()) {
    std::cerr << r.report;
    return 1;
  }
  std::cout << "barrier lockstep: seed " << o.seed << ", " << (o.chaos ? "chaos" : "protocol") << " mode, "
            << (regs == 6 ? "NPORTS=16 NREGS=6" : regs == 4 ? "NPORTS=8 NREGS=4" : "NPORTS=8 NREGS=5") << ": " << r.cycles << " cycles identical; " << r.messages_in << " messages in, "
            << r.messages_out << " out, " << r.episodes << " barrier episodes, " << r.allocs_ok << " setups, "
            << r.allocs_full << " exhaustions, " << r.releases << " teardowns\n";
  return 0;
}
