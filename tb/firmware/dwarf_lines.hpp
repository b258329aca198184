// What llvm-dwarfdump says about an image's line table (the tests' independent reference for
// the debugger's addresses). Needs LLVM_DWARFDUMP from this folder's CMake.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <regex>
#include <sstream>
#include <string>

#include "tb/firmware/run_util.hpp"

namespace sanvp::test {

// The lowest is_stmt address of source line `line` in the ELF export `elf` (any file).
inline std::uint32_t first_stmt_addr(const std::string& elf, int line) {
  const auto p = run(std::string(LLVM_DWARFDUMP) + " --debug-line " + elf);
  std::istringstream in(p.out);
  std::string l;
  std::uint32_t best = 0xFFFFFFFFu;
  const std::regex re(R"(^0x([0-9a-f]{16}) +(\d+) +\d+ +\d+ +\d+ +\d+ +is_stmt)");
  std::smatch m;
  while (std::getline(in, l))
    if (std::regex_search(l, m, re) && std::stoi(m[2]) == line) best = std::min(best, static_cast<std::uint32_t>(std::stoull(m[1], nullptr, 16)));
  REQUIRE(best != 0xFFFFFFFFu);
  return best;
}

}  // namespace sanvp::test
