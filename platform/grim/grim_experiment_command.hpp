// `sanvp grim experiment`, a subcommand of `sanvp grim` (grim_command.cpp adds it with one line).
#pragma once
#include <CLI/CLI.hpp>

#include "platform/cli/commands.hpp"

namespace sanvp::grim_host {

struct GrimSubcommand {
  CLI::App* app = nullptr;  // run when this subcommand was given
  CommandRun run;
};

// sanvp grim experiment [--out DIR] [--quick] [--jobs N] [--no-plots] [--seed N]
// (and, for its child processes, --burst-point: one Figure 3 point, run in this process)
GrimSubcommand experiment_subcommand(CLI::App& grim);

}  // namespace sanvp::grim_host
