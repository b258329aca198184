// Subcommand registry: each subsystem adds its own `sanvp <command>` from its own folder by
// defining a CommandRegistrar in an OBJECT library listed in the SANVP_CLI_COMMANDS global
// property (see platform/CMakeLists.txt). main.cpp never needs editing for a new command.
//
// setup(app) adds the subcommand to `app` and returns a function to run when it was given; that
// function returns the process exit code and may throw sanvp::UserError / SimError.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace sanvp {

using CommandRun = std::function<int()>;
using CommandSetup = std::function<CommandRun(CLI::App& app)>;

struct CommandEntry { std::string name; CommandSetup setup; };
std::vector<CommandEntry>& command_registry();

struct CommandRegistrar {
  CommandRegistrar(std::string name, CommandSetup setup) { command_registry().push_back({std::move(name), std::move(setup)}); }
};

}  // namespace sanvp
