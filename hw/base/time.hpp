// Simulated time in integer picoseconds: every timing claim in sanvp is exact in ps.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace sanvp {

using Time = std::uint64_t;  // picoseconds
inline constexpr Time kPs = 1;
inline constexpr Time kNs = 1000;
inline constexpr Time kUs = 1000 * kNs;
inline constexpr Time kMs = 1000 * kUs;
inline constexpr Time kNever = ~Time{0};
// The largest time any input may give (2^62 - 1 ps, about 53 days): a few of them add up
// without wrapping (duration + drain, the delays of a path).
inline constexpr Time kMaxTime = (Time{1} << 62) - 1;

// Parses "17ns", "6.25 ns", "1ms", "3260ps", "2us" (also "µs"). A bare number is in `default_unit`
// picoseconds-per-unit (a power of ten). Exact: a value that is not a whole number of picoseconds,
// negative, or above kMaxTime is refused. Throws UserError naming `what`.
Time parse_time(std::string_view text, std::string_view what, Time default_unit = kNs);

// A time window "FROM:TO" ("10us:50us", ":50us" from 0, "10us:" open-ended). A window that ends
// before it starts is refused. Errors name `what`.
struct TimeWindow { Time from = 0; Time to = kNever; };
TimeWindow parse_time_window(const std::string& text, std::string_view what);

// Formats with the largest unit that keeps the value exact, e.g. 6250 -> "6.25ns".
std::string format_time(Time t);

}  // namespace sanvp
