#include "platform/nic/route_table.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/nic/irq.hpp"
#include "hw/base/error.hpp"

namespace sanvp::nic {

namespace {

namespace abi = route_abi;

// The last symbol of that name (as the loader always took it).
const lanai::Symbol* find_symbol(const fw::Image& image, const char* name) {
  const lanai::Symbol* found = nullptr;
  for (const auto& s : image.symbols)
    if (s.name == name) found = &s;
  return found;
}

}  // namespace

bool has_route_table(const fw::Image& image) {
  return find_symbol(image, abi::kTableSymbol) && find_symbol(image, abi::kCountSymbol);
}

void load_routes(Nic& nic, const fw::Image& image, const std::vector<std::vector<std::uint8_t>>& routes) {
  const lanai::Symbol* table = find_symbol(image, abi::kTableSymbol);
  const lanai::Symbol* count = find_symbol(image, abi::kCountSymbol);
  if (!table || !count) throw UserError("firmware image has no g_routes/g_nodes symbols: it cannot take a route table");
  if (routes.size() > abi::kMaxNodes)
    throw UserError(fmt::format("{} nodes exceed the firmware's route table ({})", routes.size(), abi::kMaxNodes));
  for (std::size_t d = 0; d < routes.size(); ++d) {
    std::uint8_t e[sizeof(abi::RouteEntry)] = {};
    if (routes[d].size() > abi::kMaxRouteBytes)
      throw UserError(fmt::format("route to node {} has {} hops; the firmware holds at most {}", d, routes[d].size(), abi::kMaxRouteBytes));
    e[0] = static_cast<std::uint8_t>(routes[d].size());
    std::copy(routes[d].begin(), routes[d].end(), e + 1);
    nic.sram().write(table->addr + static_cast<std::uint32_t>(d * sizeof e), e, sizeof e);
  }
  std::uint8_t n[4];
  put_be32(n, static_cast<std::uint32_t>(routes.size()));
  nic.sram().write(count->addr, n, sizeof n);
}

std::vector<std::uint8_t> route_in_sram(Nic& nic, const fw::Image& image, int dst) {
  const lanai::Symbol* table = find_symbol(image, abi::kTableSymbol);
  if (!table || !has_route_table(image)) return {};
  const std::uint8_t* e = nic.sram().data() + table->addr + static_cast<std::uint32_t>(dst) * sizeof(abi::RouteEntry);
  return {e + 1, e + 1 + std::min<std::uint32_t>(e[0], abi::kMaxRouteBytes)};
}

}  // namespace sanvp::nic
