// Shared prologue of the register-level NIC test firmware (engines.cpp, sendq_fw.cpp): the route
// table from the network's mapper, and the test's mailboxes. The test writes g_cfg (mode, then
// arguments; meaning per firmware) into SRAM before the core starts and reads g_result back
// after the firmware exits. Both live in .data: crt0 does not clear them.
#pragma once
#include "fw/nic.h"
#include "fw/routes.h"

namespace nic = fw::nic;
using sanvp::route_abi::RouteEntry;

FW_DEFINE_ROUTE_TABLE()

extern "C" {
uint32_t g_cfg[16] = {0xFFFFFFFFu};
uint32_t g_result[64] = {0xFFFFFFFFu};
}

// The packet type of test packets (after the route bytes).
constexpr uint16_t kTestType = 0x0600;
