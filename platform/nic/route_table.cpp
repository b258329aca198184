#include "platform/nic/route_table.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/endian.hpp"
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

// Bounds-checked view of SRAM for the loader: an image whose symbols lie outside SRAM is a
// user error, not a crash.
void check_span(Nic& nic, std::uint32_t addr, std::uint64_t len, const char* what) {
  if (addr + len > nic.sram().size())
    throw UserError(fmt::format("firmware image's {} at 0x{:x} ({} bytes) lies outside the NIC's {} bytes of SRAM", what, addr, len,
                                nic.sram().size()));
}

void write_fixed(Nic& nic, const lanai::Symbol& table, const lanai::Symbol& count, const RouteSets& routes) {
  if (routes.size() > abi::kMaxNodes)
    throw UserError(fmt::format("{} nodes exceed the firmware's route table ({})", routes.size(), abi::kMaxNodes));
  check_span(nic, table.addr, routes.size() * sizeof(abi::RouteEntry), "g_routes");
  check_span(nic, count.addr, 4, "g_nodes");
  for (std::size_t d = 0; d < routes.size(); ++d) {
    std::uint8_t e[sizeof(abi::RouteEntry)] = {};
    const RouteBytes none;
    const RouteBytes& r = routes[d].empty() ? none : routes[d].front();
    if (r.size() > abi::kMaxRouteBytes)
      throw UserError(fmt::format("route to node {} has {} hops; the firmware holds at most {}", d, r.size(), abi::kMaxRouteBytes));
    e[0] = static_cast<std::uint8_t>(r.size());
    std::copy(r.begin(), r.end(), e + 1);
    nic.sram().write(table.addr + static_cast<std::uint32_t>(d * sizeof e), e, sizeof e);
  }
  std::uint8_t n[4];
  put_be32(n, static_cast<std::uint32_t>(routes.size()));
  nic.sram().write(count.addr, n, sizeof n);
}

struct SetHeader {
  std::uint32_t addr, max_nodes, area_bytes;
  std::uint32_t index(std::uint32_t d) const { return addr + 4 * (abi::kSetHeaderWords + d); }
  std::uint32_t area() const { return index(max_nodes); }
};

// The route-set header the firmware was built with, checked against this platform's layout.
SetHeader read_set_header(Nic& nic, const lanai::Symbol& sym) {
  check_span(nic, sym.addr, 4 * abi::kSetHeaderWords, "g_route_set header");
  const auto word = [&](std::uint32_t w) { return nic.sram().read32(sym.addr + 4 * w); };
  if (word(abi::kSetWordMagic) != abi::kSetMagic)
    throw UserError(fmt::format("firmware image's g_route_set does not start with the route-set magic 0x{:08x} (found 0x{:08x}): "
                                "define it with FW_DEFINE_ROUTE_SET from fw/routes.h",
                                abi::kSetMagic, word(abi::kSetWordMagic)));
  if (word(abi::kSetWordVersion) != abi::kSetVersion)
    throw UserError(fmt::format("firmware image's route sets have layout version {}, this platform writes version {}: "
                                "rebuild the firmware against this fw/routes.h",
                                word(abi::kSetWordVersion), abi::kSetVersion));
  SetHeader h{sym.addr, word(abi::kSetWordMaxNodes), word(abi::kSetWordAreaBytes)};
  if (h.area_bytes > abi::kSetMaxArea)
    throw UserError(fmt::format("firmware image's route sets declare {} area bytes, more than the layout addresses ({})", h.area_bytes,
                                abi::kSetMaxArea));
  check_span(nic, sym.addr, 4ull * abi::set_words(h.max_nodes, h.area_bytes), "g_route_set");
  return h;
}

void write_sets(Nic& nic, const lanai::Symbol& sym, const RouteSets& routes) {
  const SetHeader h = read_set_header(nic, sym);
  if (routes.size() > h.max_nodes)
    throw UserError(fmt::format("route sets: destination n{} is beyond the firmware's table of {} nodes "
                                "(FW_DEFINE_ROUTE_SET({}, {}); {} nodes need an index entry each)",
                                h.max_nodes, h.max_nodes, h.max_nodes, h.area_bytes, routes.size()));
  const std::size_t needed = route_set_bytes(routes);
  std::vector<std::uint8_t> area;
  area.reserve(needed);
  std::vector<std::uint8_t> index(4 * routes.size(), 0);
  for (std::size_t d = 0; d < routes.size(); ++d) {
    const auto& rs = routes[d];
    if (rs.size() > abi::kSetMaxRoutes)
      throw UserError(fmt::format("route sets: {} routes to n{}; the layout holds at most {} per destination", rs.size(), d, abi::kSetMaxRoutes));
    std::size_t bytes = 0;
    for (const auto& r : rs) bytes += 1 + r.size();
    if (area.size() + bytes > h.area_bytes)
      throw UserError(fmt::format("route sets do not fit the firmware's table: the routes to n{} need {} bytes, {} of the {} area bytes "
                                  "are left ({} bytes needed for all {} destinations; FW_DEFINE_ROUTE_SET({}, {}))",
                                  d, bytes, h.area_bytes - area.size(), h.area_bytes, needed, routes.size(), h.max_nodes, h.area_bytes));
    if (!rs.empty()) put_be32(&index[4 * d], static_cast<std::uint32_t>(area.size() << 8 | rs.size()));
    for (std::size_t k = 0; k < rs.size(); ++k) {
      if (rs[k].size() > abi::kSetMaxRouteBytes)
        throw UserError(fmt::format("route sets: route {} to n{} has {} hops; a route holds at most {}", k, d, rs[k].size(),
                                    abi::kSetMaxRouteBytes));
      area.push_back(static_cast<std::uint8_t>(rs[k].size()));
      area.insert(area.end(), rs[k].begin(), rs[k].end());
    }
  }
  if (!index.empty()) nic.sram().write(h.index(0), index.data(), static_cast<std::uint32_t>(index.size()));
  if (!area.empty()) nic.sram().write(h.area(), area.data(), static_cast<std::uint32_t>(area.size()));
  std::uint8_t w[8];
  put_be32(w, static_cast<std::uint32_t>(routes.size()));
  put_be32(w + 4, static_cast<std::uint32_t>(area.size()));
  nic.sram().write(sym.addr + 4 * abi::kSetWordNodes, w, sizeof w);
}

}  // namespace

bool has_fixed_table(const fw::Image& image) {
  return find_symbol(image, abi::kTableSymbol) && find_symbol(image, abi::kCountSymbol);
}
bool has_route_sets(const fw::Image& image) { return find_symbol(image, abi::kSetSymbol) != nullptr; }
bool has_route_table(const fw::Image& image) { return has_fixed_table(image) || has_route_sets(image); }

std::size_t route_set_bytes(const RouteSets& routes) {
  std::size_t n = 0;
  for (const auto& rs : routes)
    for (const auto& r : rs) n += 1 + r.size();
  return n;
}

void load_routes(Nic& nic, const fw::Image& image, const RouteSets& routes) {
  if (!has_route_table(image))
    throw UserError("firmware image has neither g_routes/g_nodes nor g_route_set symbols: it cannot take a route table");
  if (const lanai::Symbol* set = find_symbol(image, abi::kSetSymbol)) write_sets(nic, *set, routes);
  if (has_fixed_table(image)) write_fixed(nic, *find_symbol(image, abi::kTableSymbol), *find_symbol(image, abi::kCountSymbol), routes);
}

std::vector<RouteBytes> routes_in_sram(Nic& nic, const fw::Image& image, int dst) {
  if (dst < 0) return {};
  const auto d = static_cast<std::uint32_t>(dst);
  if (const lanai::Symbol* set = find_symbol(image, abi::kSetSymbol)) {
    const SetHeader h = read_set_header(nic, *set);
    if (d >= nic.sram().read32(set->addr + 4 * abi::kSetWordNodes) || d >= h.max_nodes) return {};
    const std::uint32_t e = nic.sram().read32(h.index(d));
    // Read as the firmware would, but never past the area (the firmware may have overwritten it).
    std::uint32_t at = e >> 8;
    std::vector<RouteBytes> out;
    for (std::uint32_t k = 0; k < (e & 0xFFu) && at < h.area_bytes; ++k) {
      const std::uint8_t* p = nic.sram().data() + h.area() + at;
      const std::uint32_t len = std::min<std::uint32_t>(p[0], h.area_bytes - at - 1);
      out.emplace_back(p + 1, p + 1 + len);
      at += 1 + len;
    }
    return out;
  }
  const lanai::Symbol* table = find_symbol(image, abi::kTableSymbol);
  if (!table || !has_fixed_table(image) || d >= abi::kMaxNodes) return {};
  const std::uint8_t* e = nic.sram().data() + table->addr + d * sizeof(abi::RouteEntry);
  return {RouteBytes(e + 1, e + 1 + std::min<std::uint32_t>(e[0], abi::kMaxRouteBytes))};
}

RouteBytes route_in_sram(Nic& nic, const fw::Image& image, int dst) {
  auto all = routes_in_sram(nic, image, dst);
  return all.empty() ? RouteBytes{} : std::move(all.front());
}

}  // namespace sanvp::nic
