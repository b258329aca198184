// The mapper's side of the route ABI (firmware/runtime/include/fw/routes.h): writes the source
// routes of a run into a NIC's SRAM at its firmware's g_routes/g_nodes symbols before the core
// starts, as a Myrinet mapper would, and reads them back for reports. Protocol-neutral: any
// firmware that defines the table (FW_DEFINE_ROUTE_TABLE) takes it.
#pragma once
#include <cstdint>
#include <vector>

#include "firmware/runtime/include/fw/routes.h"
#include "hw/nic/nic.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::nic {

// Does the image define the route table (both symbols)?
bool has_route_table(const fw::Image& image);
// Writes `routes` (entry d: the route bytes to node d; empty for none) and their count.
// Throws UserError when the image has no table or a route does not fit it.
void load_routes(Nic& nic, const fw::Image& image, const std::vector<std::vector<std::uint8_t>>& routes);
// The route to node `dst` as the firmware sees it in SRAM (empty if the image has no table).
std::vector<std::uint8_t> route_in_sram(Nic& nic, const fw::Image& image, int dst);

}  // namespace sanvp::nic
