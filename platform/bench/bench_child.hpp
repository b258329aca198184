// The child side of `sanvp bench`: `sanvp bench --case NAME [--quick] [--seed S]` runs one case
// in this (fresh) process and prints one JSON line: the case, the seed, this binary's build and
// the case's counts, including the CPU time of its measured phase ("sim_cpu_s"), which the child
// alone can separate from setup. Counts are deterministic for a given seed; times are not.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>

#include "platform/bench/bench_cases.hpp"

namespace sanvp::bench {

// Runs `c` here; throws SimError when the run did not complete or its counts are inconsistent.
nlohmann::json run_case(const BenchCase& c, bool quick, std::uint64_t seed);

// This binary: sanvp version, build type and compiler (fixed at compile time).
nlohmann::json build_info();

}  // namespace sanvp::bench
