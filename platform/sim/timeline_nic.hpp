// The NIC side of a timeline (platform/sim/timeline.hpp): spans of a node's send, receive and
// host DMA transfers, and optionally of its firmware functions. In the host library, which
// links the NIC models (the fabric's platform library does not).
#pragma once
#include "hw/nic/nic.hpp"
#include "platform/sim/timeline.hpp"

namespace sanvp {

// Records `nic`'s DMA transfers on node `node`'s tracks from now on.
void observe_nic(Timeline& tl, int node, nic::Nic& nic);
// Records a span per stretch of instructions run in one firmware function (as the flat profiler
// attributes them), in the core's own time. Uses the core's debug hook (none may be attached).
void observe_firmware(Timeline& tl, int node, nic::LanaiCore& core);

}  // namespace sanvp
