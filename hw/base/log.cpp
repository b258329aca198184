#include "log.hpp"

#include <cstdio>
#include <systemc>

#include "error.hpp"
#include "time.hpp"

namespace sanvp::log {

namespace {
Level g_level = Level::Warn;
}

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }

Level parse_level(const std::string& s) {
  if (s == "error") return Level::Error;
  if (s == "warn" || s == "warning") return Level::Warn;
  if (s == "info") return Level::Info;
  if (s == "debug") return Level::Debug;
  if (s == "trace") return Level::Trace;
  throw UserError(fmt::format("--log-level: unknown level '{}' (error, warn, info, debug, trace)", s));
}

void write(Level l, std::string_view msg) {
  static const char* names[] = {"error", "warn", "info", "debug", "trace"};
  Time now = static_cast<Time>(sc_core::sc_time_stamp().value());
  fmt::print(stderr, "[{}] {:>12} {}\n", names[static_cast<int>(l)], format_time(now), msg);
}

}  // namespace sanvp::log
