// Why a message found no window: for each candidate route, the link that blocks it (the one
// with the shortest longest free run within the message's window) and the streams holding it,
// or that its links' free slots do not line up.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/tdma/network.hpp"
#include "platform/tdma/occupancy.hpp"
#include "platform/tdma/stream.hpp"

namespace sanvp::tdma {

// e.g. "instance 1 of 4 (released at slot 10, due by slot 18) found no 2 contiguous free slots
// within [10, 18) on its only route: route 0 [2 1] (first choice): link sw0.p2.out has no 2
// contiguous free slots (longest free run 1; held by streams 35, 11, 2, 3, 14)".
std::string rejection_reason(const Occupancy& occ, const TdmaNetwork& net, const std::vector<Stream>& streams, std::size_t stream,
                             std::int64_t instance);

}  // namespace sanvp::tdma
