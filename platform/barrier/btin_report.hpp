// Text report of the BTIN barrier on the paper's running example and of the analytical model,
// for given parameters: used by `sanvp btin` and bench_btin.
#pragma once
#include <string>

#include "platform/barrier/latency_model.hpp"

namespace sanvp::barrier {

std::string btin_example_report(const LatencyParams& p);

}  // namespace sanvp::barrier
