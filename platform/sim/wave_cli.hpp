// --trace PATTERNS and --trace-window FROM:TO for a command that writes waves with --vcd (both
// need it: alone they did nothing). Header-only: included by command files, which link CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "hw/base/time.hpp"
#include "platform/sim/run.hpp"

namespace sanvp {

inline void add_wave_options(CLI::App* app, CLI::Option* vcd, RunOptions& opt, std::string& window) {
  app->add_option("--trace", opt.trace, "comma-separated module patterns to trace, e.g. 'n0*,sw0*'")->needs(vcd);
  app->add_option("--trace-window", window, "trace only FROM:TO, e.g. 10us:50us (and the --timeline's by default)")->needs(vcd);
}

// The window into the run's options, when the command runs (errors name --trace-window).
inline void apply_trace_window(const std::string& window, RunOptions& opt) {
  if (window.empty()) return;
  const TimeWindow tw = parse_time_window(window, "--trace-window");
  opt.trace_from = tw.from;
  opt.trace_to = tw.to;
}

}  // namespace sanvp
