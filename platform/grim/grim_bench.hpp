// GRIM latency and bandwidth between two hosts (the paper's measurements): ping-pong one-way
// latency = round trip / 2 per size, streaming bandwidth per size, and the firmware's cost per
// data packet while streaming (instructions retired by each NIC's core / data packets).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "platform/fw/image.hpp"
#include "platform/grim/grim_driver.hpp"

namespace sanvp::grim_host {

struct GrimBenchOptions {
  GrimConfig grim;
  int switches = 1;
  std::vector<std::uint32_t> sizes;
  int iterations = 8;      // round trips per size after one warm-up
  std::uint64_t seed = 1;
  bool fw_profile = false;
  int fw_trace_node = -1;  // instruction trace of this node's firmware (both phases)
  std::string fw_trace_file;
  Time limit = 10000 * kMs;
};

struct GrimBenchResult {
  int exit_code = 0;
  nlohmann::json report;
  std::string table;
};

GrimBenchResult run_grim_bench(ParamValues& pv, const fw::Image& image, const GrimBenchOptions& o);

}  // namespace sanvp::grim_host
