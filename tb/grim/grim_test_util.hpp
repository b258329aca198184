// Shared by the in-process GRIM tests: one GRIM run with the built-in image (GRIM_FW), its table
// printed on failure, and a run that could not even start (error) failing the test at once.
#pragma once
#include <catch2/catch.hpp>

#include "platform/grim/grim_run.hpp"

namespace sanvp::grim_test {

inline grim_host::GrimRunResult run(ParamValues& pv, const grim_host::GrimRunOptions& o) {
  const fw::Image im = fw::Image::load(GRIM_FW);
  grim_host::GrimRunResult r = grim_host::run_grim(pv, im, o);
  INFO(r.table);
  REQUIRE(r.error.empty());
  return r;
}

}  // namespace sanvp::grim_test
