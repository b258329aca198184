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

}  // namespace sanvp
