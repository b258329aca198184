// `sanvp tdma experiment [--out DIR] [--quick] [--jobs N] [--cycles N]`: the thesis's measurements
// (issue 16 part 4). Added to the `tdma` group by tdma_command.cpp.
#pragma once
#include <CLI/CLI.hpp>

#include "platform/tdma/sync_command.hpp"

namespace sanvp::tdma {

SyncSubcommand experiment_subcommand(CLI::App& tdma);

}  // namespace sanvp::tdma
