// --timeline FILE, --timeline-window FROM:TO, --timeline-fw for every command that runs a
// network (docs/timeline.md). Header-only: included by command files, which link CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "platform/sim/timeline.hpp"

namespace sanvp {

// --timeline-window and --timeline-fw need --timeline: alone they did nothing, without a word.
inline void add_timeline_options(CLI::App* app, TimelineOptions& t, const std::string& command, bool firmware = true) {
  t.command = command;
  CLI::Option* file = app->add_option("--timeline", t.file, "write a message timeline (Chrome/Perfetto trace-event JSON; open in ui.perfetto.dev)");
  app->add_option("--timeline-window", t.window, "timeline only of FROM:TO, e.g. 10us:20us (default: the --trace-window, else the whole run)")
      ->needs(file);
  if (firmware) app->add_flag("--timeline-fw", t.firmware, "add a span per firmware function run to the timeline (slower)")->needs(file);
}

}  // namespace sanvp
