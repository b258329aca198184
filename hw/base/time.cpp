#include "time.hpp"

#include <cctype>
#include <cmath>
#include <fmt/format.h>

#include "error.hpp"

namespace sanvp {

Time parse_time(std::string_view text, std::string_view what, Time default_unit) {
  std::string s(text);
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  std::size_t num_begin = i;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' || s[i] == 'E')) {
    // accept exponent sign
    if ((s[i] == 'e' || s[i] == 'E') && i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '+')) ++i;
    ++i;
  }
  std::string num = s.substr(num_begin, i - num_begin);
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  std::string unit = s.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.pop_back();
  if (num.empty() || num == "-" || num == "+")
    throw UserError(fmt::format("{}: '{}' is not a time (expected e.g. 17ns, 6.25ns, 1ms)", what, text));
  double v = 0;
  try {
    std::size_t used = 0;
    v = std::stod(num, &used);
    if (used != num.size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw UserError(fmt::format("{}: '{}' is not a time (expected e.g. 17ns, 6.25ns, 1ms)", what, text));
  }
  if (v < 0) throw UserError(fmt::format("{}: negative time '{}' is not allowed", what, text));
  double scale;
  if (unit.empty()) scale = static_cast<double>(default_unit);
  else if (unit == "ps") scale = 1;
  else if (unit == "ns") scale = 1e3;
  else if (unit == "us" || unit == "\xC2\xB5s") scale = 1e6;
  else if (unit == "ms") scale = 1e9;
  else if (unit == "s") scale = 1e12;
  else throw UserError(fmt::format("{}: unknown time unit '{}' in '{}' (use ps, ns, us, ms, s)", what, unit, text));
  double ps = v * scale;
  double rounded = std::round(ps);
  if (std::fabs(ps - rounded) > 1e-6 * std::max(1.0, std::fabs(ps)))
    throw UserError(fmt::format("{}: '{}' is not a whole number of picoseconds", what, text));
  if (rounded > 1.8e19) throw UserError(fmt::format("{}: '{}' is too large", what, text));
  if (rounded == 0 && v > 0) throw UserError(fmt::format("{}: '{}' is below 1ps (times are whole picoseconds)", what, text));
  return static_cast<Time>(rounded);
}

TimeWindow parse_time_window(const std::string& w, std::string_view what) {
  const auto colon = w.find(':');
  if (colon == std::string::npos || w.find(':', colon + 1) != std::string::npos)
    throw UserError(fmt::format("{}: '{}' is not FROM:TO (e.g. 10us:50us)", what, w));
  TimeWindow tw;
  tw.from = colon == 0 ? 0 : parse_time(w.substr(0, colon), what);
  tw.to = colon + 1 == w.size() ? kNever : parse_time(w.substr(colon + 1), what);
  if (tw.to < tw.from) throw UserError(fmt::format("{}: '{}' ends before it starts", what, w));
  return tw;
}

std::string format_time(Time t) {
  if (t == kNever) return "never";
  if (t == 0) return "0ns";
  struct U { Time div; const char* name; };
  static constexpr U units[] = {{kMs, "ms"}, {kUs, "us"}, {kNs, "ns"}};
  for (const auto& u : units) {
    if (t >= u.div) {
      if (t % u.div == 0) return fmt::format("{}{}", t / u.div, u.name);
      // exact decimal representation
      std::string frac = fmt::format("{:0{}}", t % u.div, u.div == kMs ? 9 : u.div == kUs ? 6 : 3);
      while (!frac.empty() && frac.back() == '0') frac.pop_back();
      return fmt::format("{}.{}{}", t / u.div, frac, u.name);
    }
  }
  return fmt::format("{}ps", t);
}

}  // namespace sanvp
