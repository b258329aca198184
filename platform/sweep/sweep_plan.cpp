#include "platform/sweep/sweep_plan.hpp"

#include <cmath>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

namespace {
// "150ns" -> (150, "ns"); throws on a missing number.
std::pair<double, std::string> number_unit(const std::string& s, const std::string& spec) {
  std::size_t used = 0;
  double v = 0;
  try { v = std::stod(s, &used); } catch (const std::exception&) {
    throw UserError(fmt::format("--vary '{}': '{}' is not a number", spec, s));
  }
  if (!std::isfinite(v)) throw UserError(fmt::format("--vary '{}': '{}' is not a finite number", spec, s));
  return {v, s.substr(used)};
}
bool integral(double v) { return std::abs(v - std::round(v)) < 1e-9; }
}  // namespace

SweepAxis parse_vary(const std::string& spec) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw UserError(fmt::format("--vary '{}': expected key=start:stop:step or key=v1,v2,...", spec));
  SweepAxis a;
  a.key = spec.substr(0, eq);
  const std::string range = spec.substr(eq + 1);
  if (range.find(':') == std::string::npos) {
    std::size_t pos = 0;
    while (pos <= range.size()) {
      auto c = range.find(',', pos);
      std::string v = range.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
      if (v.empty()) throw UserError(fmt::format("--vary '{}': empty value in the list", spec));
      a.values.push_back(v);
      if (c == std::string::npos) break;
      pos = c + 1;
    }
    return a;
  }
  const auto c1 = range.find(':'), c2 = range.find(':', c1 + 1);
  if (c2 == std::string::npos || range.find(':', c2 + 1) != std::string::npos)
    throw UserError(fmt::format("--vary '{}': expected start:stop:step", spec));
  auto [start, u1] = number_unit(range.substr(0, c1), spec);
  auto [stop, u2] = number_unit(range.substr(c1 + 1, c2 - c1 - 1), spec);
  auto [step, u3] = number_unit(range.substr(c2 + 1), spec);
  for (const auto* u : {&u2, &u3})
    if (!u->empty() && *u != u1) throw UserError(fmt::format("--vary '{}': start, stop and step must use one unit", spec));
  if (!(step > 0)) throw UserError(fmt::format("--vary '{}': step must be greater than 0", spec));
  if (stop < start) throw UserError(fmt::format("--vary '{}': stop is below start", spec));
  // Counted in double first: a huge range over a tiny step must not overflow the cast.
  const double count = std::floor((stop - start) / step + 1e-6) + 1;
  if (!(count <= 10000)) throw UserError(fmt::format("--vary '{}': {:.6g} points is too many (limit 10000)", spec, count));
  const long n = static_cast<long>(count);
  const bool ints = integral(start) && integral(step);
  for (long i = 0; i < n; ++i) {
    const double v = start + static_cast<double>(i) * step;
    a.values.push_back((ints ? fmt::format("{}", std::llround(v)) : fmt::format("{:.6g}", v)) + u1);
  }
  return a;
}

std::vector<std::vector<std::pair<std::string, std::string>>> sweep_points(const std::vector<SweepAxis>& axes) {
  std::vector<std::vector<std::pair<std::string, std::string>>> pts{{}};
  for (const auto& a : axes) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& p : pts)
      for (const auto& v : a.values) {
        auto q = p;
        q.emplace_back(a.key, v);
        next.push_back(std::move(q));
      }
    pts = std::move(next);
  }
  return pts;
}

}  // namespace sanvp
