// Route ABI between the platform's mapper and any NIC firmware: how firmware finds the source
// routes to node N. Shared by the firmware (clang++ --target=lanai, include "fw/routes.h") and
// the host-side loader that fills the tables (platform/nic/route_table.*), so both agree on the
// layout; plain C++17 with no firmware-only dependencies. Before the core starts, the mapper
// writes the routes into NIC SRAM at the firmware's symbols. A firmware may define either table
// or both; one that defines neither takes no routes (and so cannot be the NIC of a messaging
// host application).
//
// Fixed table (layout 1, `FW_DEFINE_ROUTE_TABLE()`): `g_routes`, kMaxNodes entries of 32 bytes
// (the number of route bytes, then the bytes, one per switch), and `g_nodes`, the number of
// entries written (a big-endian word). One route per destination: the primary route (for the
// node itself, the U-turn through its switch). `fw::route_to(N)` finds it in five instructions,
// which is what the messaging firmware's send path uses.
//
// Route sets (layout 2, `FW_DEFINE_ROUTE_SET(max_nodes, area_bytes)`): per destination node,
// including the node itself, one or more routes of any length, stored compactly. One symbol,
// `g_route_set`, an array of big-endian words:
//
//   word 0   kSetMagic                     \  set by the firmware's definition: the
//   word 1   kSetVersion                    | platform refuses a table whose magic or
//   word 2   max_nodes (index entries)      | version it does not write, and checks its
//   word 3   area_bytes (bytes for routes) /  writes against these capacities
//   word 4   nodes: index entries written (destinations 0 .. nodes-1)   \ written by
//   word 5   area bytes used                                             / the platform
//   word 6 + d (d < max_nodes)   index entry of destination d: (offset << 8) | count, where
//            offset is the byte offset of d's first route in the area and count (0..255) the
//            number of routes; 0 = no route
//   then the area (area_bytes, padded to a word): per destination, its `count` routes back to
//            back, each a length byte followed by that many route bytes
//
// Route 0 is the primary route (the routing algorithm's, the same as in the fixed table);
// routes 1.. are alternates (other deadlock-free paths, e.g. through a second trunk) when the
// platform was asked for them. The route to the node itself is the U-turn: out of the node's
// switch through the port it entered by.
#pragma once
#include <stdint.h>

namespace sanvp::route_abi {

// ---- Fixed table (layout 1) ----
inline constexpr uint32_t kMaxRouteBytes = 31;  // switches on one source route
inline constexpr uint32_t kMaxNodes = 1024;     // destinations (a power of two: firmware masks with it)
struct RouteEntry {
  uint8_t len;
  uint8_t hops[kMaxRouteBytes];
};
static_assert(sizeof(RouteEntry) == kMaxRouteBytes + 1, "route entries are packed bytes");

// Symbol names the loader looks up in the firmware image.
inline constexpr const char* kTableSymbol = "g_routes";
inline constexpr const char* kCountSymbol = "g_nodes";

// ---- Route sets (layout 2) ----
inline constexpr const char* kSetSymbol = "g_route_set";
inline constexpr uint32_t kSetMagic = 0x52544553u;  // "RTES"
inline constexpr uint32_t kSetVersion = 2;
// Header words.
inline constexpr uint32_t kSetWordMagic = 0, kSetWordVersion = 1, kSetWordMaxNodes = 2, kSetWordAreaBytes = 3,
                          kSetWordNodes = 4, kSetWordUsed = 5, kSetHeaderWords = 6;
inline constexpr uint32_t kSetMaxRoutes = 255;      // routes per destination (index count field)
inline constexpr uint32_t kSetMaxRouteBytes = 255;  // bytes of one route (its length byte)
inline constexpr uint32_t kSetMaxArea = 1u << 24;   // index offset field
// Words of a table with these capacities.
constexpr uint32_t set_words(uint32_t max_nodes, uint32_t area_bytes) { return kSetHeaderWords + max_nodes + (area_bytes + 3) / 4; }

}  // namespace sanvp::route_abi

#if defined(__lanai__)
extern "C" {
extern sanvp::route_abi::RouteEntry g_routes[sanvp::route_abi::kMaxNodes];
extern uint32_t g_nodes;
extern uint32_t g_route_set[];
}

// Defines the fixed table in exactly one source file of a firmware. Initialized, so that it
// lives in .data, which crt0 does not clear: the mapper's writes survive the start of the core.
#define FW_DEFINE_ROUTE_TABLE()                                                           \
  extern "C" {                                                                            \
  sanvp::route_abi::RouteEntry g_routes[sanvp::route_abi::kMaxNodes] = {{0xFF, {0}}};     \
  uint32_t g_nodes = 0xFFFFFFFFu;                                                         \
  }

// Defines the route sets in exactly one source file: room for destinations 0 .. max_nodes-1
// and area_bytes of routes (each route takes one byte more than its hops). In .data, as above;
// the header words tell the platform the layout and capacities.
#define FW_DEFINE_ROUTE_SET(max_nodes, area_bytes)                                                          \
  static_assert((max_nodes) > 0 && (area_bytes) > 0 && (area_bytes) <= sanvp::route_abi::kSetMaxArea,     \
                "FW_DEFINE_ROUTE_SET: bad capacities");                                                      \
  extern "C" {                                                                                               \
  uint32_t g_route_set[sanvp::route_abi::set_words((max_nodes), (area_bytes))] = {                          \
      sanvp::route_abi::kSetMagic, sanvp::route_abi::kSetVersion, (max_nodes), (area_bytes), 0, 0};         \
  }

namespace fw {
// ---- Fixed table ----
// The primary source route to `node` (node ids wrap at kMaxNodes: the mapper writes no more).
inline const sanvp::route_abi::RouteEntry& route_to(uint32_t node) {
  return g_routes[node & (sanvp::route_abi::kMaxNodes - 1)];
}

// ---- Route sets ----
// One source route: `len` route bytes at `bytes` (one per switch, the first is consumed by the
// node's own switch). {nullptr, 0} when there is no such route.
struct Route {
  const uint8_t* bytes;
  uint32_t len;
};

// Destinations the platform wrote (node ids 0 .. route_nodes()-1).
inline uint32_t route_nodes() { return g_route_set[sanvp::route_abi::kSetWordNodes]; }

// How many routes the table holds to `node` (0 for a node outside it).
inline uint32_t route_count(uint32_t node) {
  namespace abi = sanvp::route_abi;
  return node < g_route_set[abi::kSetWordNodes] ? (g_route_set[abi::kSetHeaderWords + node] & 0xFFu) : 0;
}

// Route `k` to `node`: k = 0 is the primary route, 1 .. route_count(node)-1 the alternates.
// Routes of a node are stored back to back, so this walks k length bytes.
inline Route route(uint32_t node, uint32_t k = 0) {
  namespace abi = sanvp::route_abi;
  if (k >= route_count(node)) return Route{nullptr, 0};
  const uint32_t e = g_route_set[abi::kSetHeaderWords + node];
  const uint8_t* area = reinterpret_cast<const uint8_t*>(g_route_set + abi::kSetHeaderWords + g_route_set[abi::kSetWordMaxNodes]);
  const uint8_t* p = area + (e >> 8);
  for (; k > 0; --k) p += 1u + p[0];
  return Route{p + 1, p[0]};
}
}  // namespace fw
#endif
