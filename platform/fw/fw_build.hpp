// `sanvp fw build SRC... -o IMG`: an image from firmware sources with the same flags, runtime
// and linker as add_lanai_firmware, using the installed tool's runtime or the build tree's.
#pragma once
#include <CLI/CLI.hpp>

namespace sanvp::fw {

// Adds `build` under `sanvp fw`; run_fw_build() runs it when it was parsed.
CLI::App* add_fw_build_command(CLI::App* fw);
int run_fw_build();

}  // namespace sanvp::fw
