// Sweep plans: `--vary key=start:stop:step` (numbers with an optional unit, e.g. 50ns:150ns:50ns)
// or `--vary key=a,b,c`; several --vary options span their cartesian product, the first one
// outermost.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace sanvp {

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

SweepAxis parse_vary(const std::string& spec);
// Every point as its list of key=value overrides.
std::vector<std::vector<std::pair<std::string, std::string>>> sweep_points(const std::vector<SweepAxis>& axes);

}  // namespace sanvp
