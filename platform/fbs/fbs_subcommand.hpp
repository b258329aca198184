// Subcommands of `sanvp fbs`. Each is one function that adds its CLI::App to the `fbs` group
// and returns it with its runner; fbs_command.cpp lists them, one line each.
#pragma once
#include <CLI/CLI.hpp>

#include "platform/cli/commands.hpp"

namespace sanvp::fbs {

struct Subcommand {
  CLI::App* app = nullptr;  // run when this subcommand was given
  CommandRun run;
};
using AddSubcommand = Subcommand (*)(CLI::App& fbs);

Subcommand schedule_subcommand(CLI::App& fbs);  // sanvp fbs schedule TOPO [--kind] [--routes] [--json]
Subcommand model_subcommand(CLI::App& fbs);     // sanvp fbs model [--set k=v]... [--levels] [--ports] [--json]
Subcommand run_subcommand(CLI::App& fbs);       // sanvp fbs run [TOPO [ARGS...]] [--kind] [--set k=v]... [--report] [--vcd] [--probes]
Subcommand experiment_subcommand(CLI::App& fbs);  // sanvp fbs experiment [--out] [--only] [--rounds] [--jobs] [--quick] [--no-plots]

}  // namespace sanvp::fbs
