// The options of a simulation run in a test, shared by the testbenches that link the platform.
#pragma once
#include "platform/sim/run.hpp"
#include "tb/common/test_params.hpp"

namespace sanvp::test {

// The work-conservation monitor on (as in every test), no report file, no printed summary.
inline RunOptions checked_run_options() {
  RunOptions opt;
  opt.check = true;
  opt.report = "";
  opt.print_summary = false;
  return opt;
}

}  // namespace sanvp::test
