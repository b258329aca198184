#include "hw/nic/iss/symbols.hpp"

#include <cstdlib>
#include <cxxabi.h>
#include <fmt/format.h>

namespace sanvp::lanai {

namespace {
std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = (status == 0 && d) ? d : name;
  std::free(d);
  return out;
}
}  // namespace

SymbolTable::SymbolTable(std::vector<Symbol> syms) : syms_(std::move(syms)) {
  for (auto& s : syms_)
    if (s.display.empty()) s.display = demangle(s.name);
  std::stable_sort(syms_.begin(), syms_.end(), [](const Symbol& a, const Symbol& b) {
    if (a.addr != b.addr) return a.addr < b.addr;
    return a.size > b.size;  // prefer the sized symbol at an address
  });
}

const Symbol* SymbolTable::find(std::uint32_t addr) const {
  auto it = std::upper_bound(syms_.begin(), syms_.end(), addr,
                             [](std::uint32_t a, const Symbol& s) { return a < s.addr; });
  // Nearest symbol at or below addr that covers it; unsized symbols cover up to the next one.
  while (it != syms_.begin()) {
    --it;
    if (it->size == 0 || addr - it->addr < it->size) return &*it;
    if (it->addr + it->size <= addr) {
      // Keep looking only through symbols at the very same address.
      if (it == syms_.begin() || std::prev(it)->addr != it->addr) break;
    }
  }
  return nullptr;
}

const Symbol* SymbolTable::by_name(const std::string& name) const {
  for (const auto& s : syms_)
    if (s.name == name || s.display == name) return &s;
  return nullptr;
}

std::string SymbolTable::describe(std::uint32_t addr) const {
  const Symbol* s = find(addr);
  if (!s) return fmt::format("0x{:08x}", addr);
  if (addr == s->addr) return s->display;
  return fmt::format("{}+0x{:x}", s->display, addr - s->addr);
}

}  // namespace sanvp::lanai
