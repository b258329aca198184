// Explains a hung network: every blocked worm (where its head and tail are, which output its
// header waits for, which worm holds that output) and the cycle of worms waiting for each other,
// if there is one. Built from the switches' structured worm state when the watchdog fires.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/sim/network.hpp"

namespace sanvp {

struct HangReport {
  std::vector<std::string> worms;  // one line per blocked worm
  std::vector<std::string> cycle;  // one line per worm of the wait-for cycle; empty if none
  std::string no_cycle_reason;     // when there is no cycle: where the blocked chain ends
  nlohmann::json json;
};

HangReport analyze_hang(Network& net, Time now);

// The longest no flit anywhere can stand still while the network is not hung: after the last
// move, a flit on a wire arrives within ld, a header then waits rd and crosses in sd, and a GO a
// drained buffer sent acts on its sender ld + 2 fc later (each at the network's largest value),
// plus a character period. No flit moving for longer, with packets in flight, is a hang. With
// the parts named, for errors.
struct Standstill {
  Time bound = 0;
  std::string formula;
};
Standstill longest_standstill(Network& net);

}  // namespace sanvp
