#include "hw/nic/register.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <stdexcept>

namespace sanvp::nic {

namespace {
std::map<std::uint32_t, RegisterInfo>& catalog() {  // by address: the listing order
  static std::map<std::uint32_t, RegisterInfo> c;
  return c;
}
}  // namespace

const char* access_name(Access a) {
  switch (a) {
    case Access::R: return "R";
    case Access::W: return "W";
    case Access::RW: return "RW";
    case Access::W1C: return "W1C";
  }
  return "?";
}

std::string RegisterInfo::reset_string() const {
  return reset_text.empty() ? fmt::format("0x{:08x}", reset) : reset_text;
}

void RegisterCatalog::add(const RegisterInfo& info) {
  const auto [it, fresh] = catalog().emplace(info.address(), info);
  if (!fresh)
    throw std::logic_error(fmt::format("register {}.{} at 0x{:08x} collides with {}.{}", info.block, info.name,
                                       info.address(), it->second.block, it->second.name));
}

std::vector<RegisterInfo> RegisterCatalog::sorted() {
  std::vector<RegisterInfo> v;
  for (const auto& kv : catalog()) v.push_back(kv.second);
  return v;
}

const RegisterInfo* RegisterCatalog::find(const std::string& block, const std::string& name) {
  for (const auto& kv : catalog())
    if (kv.second.block == block && kv.second.name == name) return &kv.second;
  return nullptr;
}

std::string RegisterCatalog::text() {
  const auto all = sorted();
  std::size_t bw = 5, nw = 8, rw = 10;
  for (const auto& r : all) {
    bw = std::max(bw, r.block.size());
    nw = std::max(nw, r.name.size());
    rw = std::max(rw, r.reset_string().size());
  }
  std::string out = fmt::format("{:<10}  {:<{}}  {:<6}  {:<{}}  {:<6}  {:<{}}  {}\n", "address", "block", bw, "offset",
                                "register", nw, "access", "reset", rw, "meaning");
  for (const auto& r : all)
    out += fmt::format("0x{:08x}  {:<{}}  0x{:03x}   {:<{}}  {:<6}  {:<{}}  {}\n", r.address(), r.block, bw, r.offset, r.name,
                       nw, access_name(r.access), r.reset_string(), rw, r.meaning);
  return out;
}

std::string RegisterCatalog::markdown() {
  std::string out = "| address | block | offset | register | access | reset | meaning |\n|---|---|---|---|---|---|---|\n";
  for (const auto& r : sorted())
    out += fmt::format("| `0x{:08x}` | {} | `0x{:03x}` | `{}` | {} | {} | {} |\n", r.address(), r.block, r.offset, r.name,
                       access_name(r.access), r.reset_text.empty() ? fmt::format("`0x{:x}`", r.reset) : r.reset_text,
                       r.meaning);
  return out;
}

}  // namespace sanvp::nic
