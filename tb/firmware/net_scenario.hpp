// The network the debugger tests run (`sanvp run SCENARIO --debug ...`): two NIC nodes on one
// switch running `image` (n1 streams `msgs` messages of 1 KiB to n0) and test endpoints n2, n3
// carrying background traffic. Written to `path`; returns it.
#pragma once
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "tb/firmware/run_util.hpp"

namespace sanvp::test {

inline std::string write_msg_scenario(const std::string& path, const std::string& image, int msgs) {
  std::ofstream o(path);
  o << "name: dbg-net\nseed: 1\nduration: 5us\n"
       "topology:\n  switches: [{id: 0, ports: 4}]\n  nodes: [\"0:0\", \"0:1\", \"0:2\", \"0:3\"]\n"
       "traffic: {pattern: uniform, load: 0.1, payload: 64}\n"
       "nodes:\n"
    << "  - {id: 0, firmware: " << image << ", host: {app: sink}}\n"
    << "  - {id: 1, firmware: " << image << ", host: {app: stream, args: [0, 1K, " << msgs << "]}}\n";
  REQUIRE(o.good());
  return path;
}

// The number of the first line of `file` holding `text`.
inline int line_containing(const std::string& file, const std::string& text) {
  std::istringstream in(slurp(file));
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(text) != std::string::npos) return n;
  FAIL("no line of " << file << " holds " << text);
  return 0;
}

}  // namespace sanvp::test
