// The mapper's side of the route ABI (firmware/runtime/include/fw/routes.h): writes the source
// routes of a run into a NIC's SRAM at its firmware's symbols before the core starts, as a
// Myrinet mapper would, and reads them back for reports and tests. Protocol-neutral: any
// firmware that defines a fixed table (FW_DEFINE_ROUTE_TABLE: g_routes/g_nodes, the primary
// route per destination) or route sets (FW_DEFINE_ROUTE_SET: g_route_set, every route per
// destination) takes them; a firmware defining both gets both.
#pragma once
#include <cstdint>
#include <vector>

#include "firmware/runtime/include/fw/routes.h"
#include "hw/nic/nic.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::nic {

using RouteBytes = std::vector<std::uint8_t>;
// The routes from one NIC: entry d holds the routes to node d, the primary first, then any
// alternates (empty: no route to d). Entry `self` holds the U-turn.
using RouteSets = std::vector<std::vector<RouteBytes>>;

// Does the image define a route table of either layout?
bool has_route_table(const fw::Image& image);
bool has_fixed_table(const fw::Image& image);  // g_routes + g_nodes
bool has_route_sets(const fw::Image& image);   // g_route_set
// Bytes of SRAM the route sets of `routes` take in the area (length byte + hops per route).
std::size_t route_set_bytes(const RouteSets& routes);
// Writes `routes` into every table the image defines (the fixed table gets each primary
// route). Call after load_image: the route-set header is read from SRAM. Throws UserError when
// the image has no table, its route-set header has another magic or layout version, or the
// routes do not fit (naming the destination, the bytes needed and the bytes available).
void load_routes(Nic& nic, const fw::Image& image, const RouteSets& routes);
// The primary route to node `dst` as the firmware sees it in SRAM (the route sets' route 0 if
// the image has them, else the fixed table's entry; empty if there is none).
RouteBytes route_in_sram(Nic& nic, const fw::Image& image, int dst);
// Every route to `dst` as the firmware sees it (the fixed table alone gives one).
std::vector<RouteBytes> routes_in_sram(Nic& nic, const fw::Image& image, int dst);

}  // namespace sanvp::nic
