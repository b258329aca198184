#include "time.hpp"

#include <cctype>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <fmt/format.h>

#include "error.hpp"

namespace sanvp {

namespace {

// A decimal number as digits and a power of ten, exactly: [sign] digits [. digits] [e [sign] digits].
struct Decimal {
  bool negative = false;
  std::string digits;  // significant digits, no leading or trailing zeros ("" for zero)
  long exponent = 0;   // value = digits x 10^exponent
};

bool parse_decimal(const std::string& num, Decimal& d) {
  std::size_t i = 0;
  if (i < num.size() && (num[i] == '-' || num[i] == '+')) d.negative = num[i++] == '-';
  std::string mant;
  long frac = 0;
  bool point = false, any = false;
  for (; i < num.size() && (std::isdigit(static_cast<unsigned char>(num[i])) || (num[i] == '.' && !point)); ++i) {
    if (num[i] == '.') { point = true; continue; }
    mant += num[i];
    any = true;
    if (point) ++frac;
  }
  if (!any) return false;
  long exp = 0;
  if (i < num.size() && (num[i] == 'e' || num[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < num.size() && (num[i] == '-' || num[i] == '+')) neg = num[i++] == '-';
    if (i == num.size()) return false;
    for (; i < num.size() && std::isdigit(static_cast<unsigned char>(num[i])); ++i) exp = std::min(exp * 10 + (num[i] - '0'), 100000L);
    exp = neg ? -exp : exp;
  }
  if (i != num.size()) return false;
  const std::size_t first = mant.find_first_not_of('0');
  if (first == std::string::npos) return true;  // zero
  const std::size_t last = mant.find_last_not_of('0');
  d.digits = mant.substr(first, last - first + 1);
  d.exponent = exp - frac + static_cast<long>(mant.size() - 1 - last);
  return true;
}

// The unit's picoseconds as a power of ten (a bare number: `default_unit`, which is one).
int unit_exponent(const std::string& unit, Time default_unit, std::string_view what, std::string_view text) {
  if (unit.empty()) {
    int e = 0;
    for (Time u = default_unit; u > 1 && u % 10 == 0; u /= 10) ++e;
    return e;
  }
  if (unit == "ps") return 0;
  if (unit == "ns") return 3;
  if (unit == "us" || unit == "\xC2\xB5s") return 6;
  if (unit == "ms") return 9;
  if (unit == "s") return 12;
  throw UserError(fmt::format("{}: unknown time unit '{}' in '{}' (use ps, ns, us, ms, s)", what, unit, text));
}

}  // namespace

// Exact decimal arithmetic, not a double: "6250.004ps" is not 6250 ps, and no time rounds.
Time parse_time(std::string_view text, std::string_view what, Time default_unit) {
  std::string s(text);
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  const std::size_t num_begin = i;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || std::strchr("+-.eE", s[i]))) ++i;
  const std::string num = s.substr(num_begin, i - num_begin);
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  std::string unit = s.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.pop_back();
  Decimal d;
  if (num.empty() || !parse_decimal(num, d))
    throw UserError(fmt::format("{}: '{}' is not a time (expected e.g. 17ns, 6.25ns, 1ms)", what, text));
  const long exp = d.exponent + unit_exponent(unit, default_unit, what, text);
  if (d.digits.empty()) return 0;
  if (d.negative) throw UserError(fmt::format("{}: negative time '{}' is not allowed", what, text));
  if (exp < 0) {  // the significant digits end below a picosecond
    if (static_cast<long>(d.digits.size()) + exp <= 0)
      throw UserError(fmt::format("{}: '{}' is below 1ps (times are whole picoseconds)", what, text));
    throw UserError(fmt::format("{}: '{}' is not a whole number of picoseconds", what, text));
  }
  const auto too_large = [&] {
    return UserError(fmt::format("{}: '{}' is too large (times are at most {}, about 53 days)", what, text, format_time(kMaxTime)));
  };
  if (static_cast<long>(d.digits.size()) + exp > 19) throw too_large();
  Time v = 0;
  for (char c : d.digits) v = v * 10 + static_cast<Time>(c - '0');
  for (long k = 0; k < exp; ++k) {
    if (v > kMaxTime / 10) throw too_large();
    v *= 10;
  }
  if (v > kMaxTime) throw too_large();
  return v;
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
