// Firmware symbol table for reports, traces and profiles: address -> "name+0x1c".
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace sanvp::lanai {

struct Symbol {
  std::uint32_t addr = 0;
  std::uint32_t size = 0;
  std::string name;
  bool is_function = false;
  std::string display;  // demangled name (filled in by SymbolTable)
};

class SymbolTable {
 public:
  SymbolTable() = default;
  explicit SymbolTable(std::vector<Symbol> syms);
  // The function or object covering `addr` (the nearest one below when sizes are unknown).
  const Symbol* find(std::uint32_t addr) const;
  const Symbol* by_name(const std::string& name) const;  // mangled or demangled
  std::string describe(std::uint32_t addr) const;  // "main()+0x1c" or "0x00001234"
  const std::vector<Symbol>& all() const { return syms_; }

 private:
  std::vector<Symbol> syms_;  // sorted by address
};

}  // namespace sanvp::lanai
