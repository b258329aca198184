// Subcommand registry: each subsystem adds its own `sanvp <command>` from its own folder by
// defining a CommandRegistrar in an OBJECT library listed in the SANVP_CLI_COMMANDS global
// property (see platform/CMakeLists.txt). main.cpp never needs editing for a new command.
//
// setup(app) adds the subcommand to `app` and returns a function to run when it was given; that
// function returns the process exit code and may throw sanvp::UserError / SimError.
#pragma once
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hw/base/params.hpp"

namespace sanvp {

using CommandRun = std::function<int()>;
using CommandSetup = std::function<CommandRun(CLI::App& app)>;

struct CommandEntry { std::string name; CommandSetup setup; };
std::vector<CommandEntry>& command_registry();

// --seed for every command: CLI11 would wrap "-1" to 2^64-1 and clamp 99999999999999999999 to
// 2^64-1 in an unsigned option; both are refused instead.
inline std::string check_seed(const std::string& v) {
  const std::string max = "18446744073709551615";
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
    return "must be a non-negative integer, got " + v;
  const std::string d = v.substr(std::min(v.find_first_not_of('0'), v.size()));
  if (d.size() > max.size() || (d.size() == max.size() && d > max)) return "'" + v + "' is above the largest seed " + max;
  return {};
}
inline CLI::Option* add_seed_option(CLI::App* app, std::uint64_t& seed, const std::string& help) {
  return app->add_option("--seed", seed, help)->check(check_seed);
}

// An integer option read as 64-bit by parse_int and range-checked there: CLI11 alone says only
// "Could not convert" past 32 bits, wraps -1 in an unsigned option and reads "010" as octal.
// The error names the option and [lo, hi]; `name` is one long name ("--nodes").
template <typename T>
CLI::Option* add_int_option(CLI::App* app, const std::string& name, T& var, std::int64_t lo, std::int64_t hi, const std::string& help) {
  return app->add_option_function<std::string>(
      name, [&var, name, lo, hi](const std::string& v) { var = static_cast<T>(parse_int(v, name, lo, hi)); }, help)
      ->type_name("INT");
}

// --fw-trace N and --fw-trace-file for every command that runs NIC firmware: one range check
// (grim and msg used to take -1 as "no trace", exit 0). The file and the filter need --fw-trace:
// alone they did nothing, without a word.
inline CLI::Option* add_fw_trace_node_options(
    CLI::App* app, int& node, std::string& file,
    const std::string& help = "instruction trace of node N's firmware (time, pc, symbol, disassembly, register writes)") {
  CLI::Option* n = add_int_option(app, "--fw-trace", node, 0, 1 << 20, help);
  app->add_option("--fw-trace-file", file, "write the instruction trace here (default stderr)")->needs(n);
  return n;
}
// ... and --fw-trace-filter, for the commands that can filter the trace.
inline void add_fw_trace_options(CLI::App* app, int& node, std::string& file, std::string& filter) {
  CLI::Option* n = add_fw_trace_node_options(app, node, file);
  app->add_option("--fw-trace-filter", filter, "trace only these functions or pc ranges, e.g. 'main,0x100-0x200'")->needs(n);
}

struct CommandRegistrar {
  CommandRegistrar(std::string name, CommandSetup setup) { command_registry().push_back({std::move(name), std::move(setup)}); }
};

}  // namespace sanvp
