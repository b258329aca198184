// VCD checks shared by the testbenches: a signal written twice at one instant is a zero-width
// glitch in GTKWave (it looks like a packet boundary at overview zoom).
#pragma once
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sanvp::test {

struct RepeatedChange { long long time; std::string id; };

// Every (time, identifier) at which a signal changes more than once; the $dumpvars block (the
// values at the window start) does not count.
inline std::vector<RepeatedChange> repeated_changes(const std::string& vcd) {
  std::vector<RepeatedChange> out;
  std::istringstream in(vcd);
  std::map<std::string, int> seen;
  long long t = -1;
  bool defs = true, dumpvars = false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string w;
    ls >> w;
    if (w.empty()) continue;
    if (defs) { defs = w != "$enddefinitions"; continue; }
    if (w == "$dumpvars") { dumpvars = true; continue; }
    if (w == "$end") { dumpvars = false; seen.clear(); continue; }
    if (w[0] == '$' || dumpvars) continue;
    if (w[0] == '#') { t = std::stoll(w.substr(1)); seen.clear(); continue; }
    std::string id;
    if (w[0] == 'b' || w[0] == 'B' || w[0] == 'r' || w[0] == 'R') ls >> id;
    else id = w.substr(1);
    if (seen[id]++ == 1) out.push_back({t, id});
  }
  return out;
}

}  // namespace sanvp::test
