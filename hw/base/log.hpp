// Levelled logging through fmt. Messages carry the simulated time when a simulation is running.
#pragma once
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace sanvp::log {

enum class Level { Error = 0, Warn = 1, Info = 2, Debug = 3, Trace = 4 };

void set_level(Level l);
Level level();
Level parse_level(const std::string& s);  // throws UserError
void write(Level l, std::string_view msg);

template <typename... A>
void error(fmt::format_string<A...> f, A&&... a) { write(Level::Error, fmt::format(f, std::forward<A>(a)...)); }
template <typename... A>
void warn(fmt::format_string<A...> f, A&&... a) {
  if (level() >= Level::Warn) write(Level::Warn, fmt::format(f, std::forward<A>(a)...));
}
template <typename... A>
void info(fmt::format_string<A...> f, A&&... a) {
  if (level() >= Level::Info) write(Level::Info, fmt::format(f, std::forward<A>(a)...));
}
template <typename... A>
void debug(fmt::format_string<A...> f, A&&... a) {
  if (level() >= Level::Debug) write(Level::Debug, fmt::format(f, std::forward<A>(a)...));
}

}  // namespace sanvp::log
