// parse_time: exact decimal times in picoseconds; what it refuses and why.
#include <catch2/catch.hpp>
#include <string>

#include "hw/base/error.hpp"
#include "hw/base/time.hpp"

using namespace sanvp;

namespace {
std::string refusal(const std::string& text) {
  try {
    parse_time(text, "t");
  } catch (const UserError& e) {
    return e.what();
  }
  return "accepted";
}
}  // namespace

TEST_CASE("times are parsed exactly in every unit and notation") {
  CHECK(parse_time("6.25ns", "t") == 6250);
  CHECK(parse_time("6.25 ns", "t") == 6250);
  CHECK(parse_time("3260ps", "t") == 3260);
  CHECK(parse_time("1.000000000001s", "t") == 1000000000001ULL);
  CHECK(parse_time("2\xC2\xB5s", "t") == 2000000);
  CHECK(parse_time("1e3ns", "t") == 1000000);
  CHECK(parse_time("1.5E-3us", "t") == 1500);
  CHECK(parse_time("0.0000ms", "t") == 0);
  CHECK(parse_time("17", "t") == 17000);  // a bare number is in the default unit (ns)
  CHECK(parse_time("4611686018427387903ps", "t") == kMaxTime);
  CHECK(parse_time("4611686.018427387903s", "t") == kMaxTime);
  CHECK(parse_time("+5ps", "t") == 5);
}

TEST_CASE("a time that is not a whole number of picoseconds, negative, or too large is refused") {
  CHECK(refusal("6250.004ps") == "t: '6250.004ps' is not a whole number of picoseconds");  // a double within 1e-6 took it as 6250
  CHECK(refusal("1.0000000000001s") == "t: '1.0000000000001s' is not a whole number of picoseconds");
  CHECK(refusal("0.4ps") == "t: '0.4ps' is below 1ps (times are whole picoseconds)");
  CHECK(refusal("1e-400s") == "t: '1e-400s' is below 1ps (times are whole picoseconds)");
  CHECK(refusal("-5ns") == "t: negative time '-5ns' is not allowed");
  CHECK(refusal("4611686018427387904ps").find("is too large (times are at most") != std::string::npos);
  CHECK(refusal("9223372036854775808ps").find("is too large") != std::string::npos);
  CHECK(refusal("1e400s").find("is too large") != std::string::npos);
  CHECK(refusal("1e7s").find("is too large") != std::string::npos);  // 10^19 ps: wrapped in sums before
  CHECK(refusal("5 parsecs") == "t: unknown time unit 'parsecs' in '5 parsecs' (use ps, ns, us, ms, s)");
  for (const char* bad : {"", "ns", ".ns", "1e", "1e+", "1.2.3ns", "--1ns", "inf", "nan", "1e5e5ns"}) {
    INFO(bad);
    CHECK(refusal(bad).find("is not a time") != std::string::npos);
  }
  CHECK(refusal("0x10ns") == "t: unknown time unit 'x10ns' in '0x10ns' (use ps, ns, us, ms, s)");
}
