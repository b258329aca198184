// Route ABI between the platform's mapper and any NIC firmware: how firmware finds the source
// route to node N. Shared by the firmware (clang++ --target=lanai, include "fw/routes.h") and
// the host-side loader that fills the table (platform/nic/route_table.*), so both agree on the
// layout; plain C++17 with no firmware-only dependencies.
//
// The firmware owns a table `g_routes` of kMaxNodes entries and a word `g_nodes`, both with C
// linkage. Before the core starts, the mapper writes into NIC SRAM, at those symbols, the route
// to every destination (entry d: the number of route bytes, then the bytes, one per switch) and
// the number of entries written (a big-endian word). A firmware without these symbols takes no
// route table (and so cannot be the NIC of a messaging host application).
#pragma once
#include <stdint.h>

namespace sanvp::route_abi {

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

}  // namespace sanvp::route_abi

#if defined(__lanai__)
extern "C" {
extern sanvp::route_abi::RouteEntry g_routes[sanvp::route_abi::kMaxNodes];
extern uint32_t g_nodes;
}

// Defines the table in exactly one source file of a firmware. Initialized, so that it lives in
// .data, which crt0 does not clear: the mapper's writes survive the start of the core.
#define FW_DEFINE_ROUTE_TABLE()                                                           \
  extern "C" {                                                                            \
  sanvp::route_abi::RouteEntry g_routes[sanvp::route_abi::kMaxNodes] = {{0xFF, {0}}};     \
  uint32_t g_nodes = 0xFFFFFFFFu;                                                         \
  }

namespace fw {
// The source route to `node` (node ids wrap at kMaxNodes: the mapper writes no more).
inline const sanvp::route_abi::RouteEntry& route_to(uint32_t node) {
  return g_routes[node & (sanvp::route_abi::kMaxNodes - 1)];
}
}  // namespace fw
#endif
