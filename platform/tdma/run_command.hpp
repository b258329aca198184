// `sanvp tdma run STREAMS TOPO [ARGS...]`: the TDMA slot-sending firmware on every NIC
// (platform/tdma/tdma_run.hpp). Added to the `tdma` group by tdma_command.cpp.
#pragma once
#include <CLI/CLI.hpp>

#include "platform/tdma/sync_command.hpp"

namespace sanvp::tdma {

SyncSubcommand run_subcommand(CLI::App& tdma);

}  // namespace sanvp::tdma
