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

// A VCD read back (the subset sanvp's tracer writes): per signal path ("n1.out.stop") its
// declared width and its values in time order, the $dumpvars values first.
struct VcdSignals {
  struct Change { long long t; unsigned long long v; };
  std::map<std::string, int> width;
  std::map<std::string, std::vector<Change>> changes;
  // The value of `name` at instant t (after the changes at t); 0 before the first.
  unsigned long long at(const std::string& name, long long t) const {
    unsigned long long v = 0;
    const auto it = changes.find(name);
    if (it == changes.end()) return 0;
    for (const Change& c : it->second) {
      if (c.t > t) break;
      v = c.v;
    }
    return v;
  }
};

inline VcdSignals read_vcd(const std::string& vcd) {
  VcdSignals out;
  std::istringstream in(vcd);
  std::vector<std::string> scopes;
  std::map<std::string, std::string> path;  // identifier -> scope.name
  long long t = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string w;
    ls >> w;
    if (w.empty()) continue;
    if (w == "$scope") {
      std::string kind, name;
      ls >> kind >> name;
      scopes.push_back(name);
    } else if (w == "$upscope") {
      scopes.pop_back();
    } else if (w == "$var") {
      std::string type, id, name, full;
      int width = 0;
      ls >> type >> width >> id >> name;
      for (const auto& s : scopes) full += s + ".";
      path[id] = full + name;
      out.width[full + name] = width;
    } else if (w[0] == '#') {
      t = std::stoll(w.substr(1));
    } else if (w[0] == 'b') {
      std::string id;
      ls >> id;
      out.changes[path.at(id)].push_back({t, std::stoull(w.substr(1), nullptr, 2)});
    } else if (w[0] == '0' || w[0] == '1') {
      out.changes[path.at(w.substr(1))].push_back({t, static_cast<unsigned long long>(w[0] - '0')});
    }
  }
  return out;
}

}  // namespace sanvp::test
