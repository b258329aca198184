// `sanvp fw symbolize IMAGE`: a GTKWave process filter that turns pc values into symbol+offset.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "hw/nic/iss/symbols.hpp"

namespace sanvp::fw {

// One input line of the filter -> its output line: "fn+0x1c", "fn" at offset 0, the address in
// hex when no function covers it; x/z and unparsable values come back unchanged.
std::string symbolize_value(const lanai::SymbolTable& functions, const std::string& line);

// Adds `symbolize` under `sanvp fw`; run_symbolize() runs it when it was parsed.
CLI::App* add_symbolize_command(CLI::App* fw);
int run_symbolize();

}  // namespace sanvp::fw
