// Parameters set by a test, shared by the testbenches.
#pragma once
#include <initializer_list>
#include <string>

#include "hw/base/params.hpp"

namespace sanvp::test {

// ParamValues with "key=value" items applied (origin "test"), e.g.
// test_params({"link.ld=23ns", "switch.rd=140ns"}).
inline ParamValues test_params(std::initializer_list<const char*> sets) {
  ParamValues pv;
  for (const char* s : sets) {
    const std::string item = s;
    const auto eq = item.find('=');
    pv.set(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1), "test");
  }
  return pv;
}

}  // namespace sanvp::test
