// `sanvp tdma sync [TOPO [ARGS...]]`: the TDMA clock-synchronization firmware on every NIC
// (platform/tdma/sync_run.hpp). Added to the `tdma` group by tdma_command.cpp.
#pragma once
#include <CLI/CLI.hpp>

#include "platform/cli/commands.hpp"

namespace sanvp::tdma {

struct SyncSubcommand {
  CLI::App* app = nullptr;  // run when this subcommand was given
  CommandRun run;
};
SyncSubcommand sync_subcommand(CLI::App& tdma);

}  // namespace sanvp::tdma
