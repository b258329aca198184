// A checker of the Chrome/Perfetto trace-event format as `--timeline` writes it
// (platform/sim/timeline.hpp, docs/timeline.md): the document's shape, the keys every phase
// needs, non-negative times written exactly, "X" events properly nested on each track, every
// "b" closed by its "e", and metadata naming every process and track used.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace sanvp::test {

// Microseconds (a number with six decimals) to picoseconds, exact for runs below ~1000 s.
inline std::uint64_t trace_ps(const nlohmann::json& v) { return static_cast<std::uint64_t>(std::llround(v.get<double>() * 1e6)); }

struct TraceSpan { std::int64_t ts, end; };

// Problems found in `text` (empty: valid). `doc` receives the parsed document.
inline std::vector<std::string> check_trace(const std::string& text, nlohmann::json& doc) {
  std::vector<std::string> bad;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    return {std::string("not JSON: ") + e.what()};
  }
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) return {"no traceEvents array"};
  if (doc.value("displayTimeUnit", "") != "ns") bad.push_back("displayTimeUnit is not \"ns\"");
  if (!doc.contains("otherData") || !doc["otherData"].contains("seed")) bad.push_back("otherData has no seed");
  // Times are printed as exact decimals, never in exponent form or with lossy digits.
  static const std::regex num(R"re("(ts|dur)":([^,}]*))re");
  static const std::regex exact(R"(\d+\.\d{6})");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), num); it != std::sregex_iterator(); ++it)
    if (!std::regex_match((*it)[2].str(), exact)) bad.push_back("inexact time " + (*it)[0].str());
  std::set<int> named_pids;
  std::set<std::pair<int, int>> named_tids, used;
  std::map<std::pair<int, int>, std::vector<TraceSpan>> spans;
  std::map<std::tuple<int, std::string, std::uint64_t>, std::int64_t> open;  // (pid, cat, id) -> b's ts
  for (const auto& e : doc["traceEvents"]) {
    const std::string where = e.dump().substr(0, 160);
    if (!e.contains("ph") || !e.contains("pid") || !e.contains("tid") || !e.contains("name")) { bad.push_back("missing ph/pid/tid/name: " + where); continue; }
    const std::string ph = e["ph"];
    const int pid = e["pid"], tid = e["tid"];
    if (ph == "M") {
      const std::string n = e["name"];
      if (n == "process_name") named_pids.insert(pid);
      if (n == "thread_name") named_tids.insert({pid, tid});
      if ((n == "process_name" || n == "thread_name") && !(e.contains("args") && e["args"].contains("name"))) bad.push_back("metadata without args.name: " + where);
      continue;
    }
    used.insert({pid, tid});
    if (!e.contains("ts") || !e["ts"].is_number() || e["ts"].get<double>() < 0) { bad.push_back("bad ts: " + where); continue; }
    if (!e.contains("cat")) bad.push_back("no cat: " + where);
    const auto ts = static_cast<std::int64_t>(trace_ps(e["ts"]));
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) { bad.push_back("X without dur >= 0: " + where); continue; }
      spans[{pid, tid}].push_back({ts, ts + static_cast<std::int64_t>(trace_ps(e["dur"]))});
    } else if (ph == "b" || ph == "e") {
      if (!e.contains("id")) { bad.push_back("async without id: " + where); continue; }
      const auto key = std::make_tuple(pid, e.value("cat", ""), e["id"].get<std::uint64_t>());
      if (ph == "b") {
        if (!open.emplace(key, ts).second) bad.push_back("b opened twice: " + where);
      } else {
        auto it = open.find(key);
        if (it == open.end()) bad.push_back("e without b: " + where);
        else if (ts < it->second) bad.push_back("e before its b: " + where);
        if (it != open.end()) open.erase(it);
      }
    } else if (ph == "i") {
      const std::string s = e.value("s", "");
      if (s != "t" && s != "p" && s != "g") bad.push_back("instant without scope s: " + where);
    } else {
      bad.push_back("unexpected phase " + ph);
    }
  }
  for (const auto& [k, ts] : open) bad.push_back("b never closed, id " + std::to_string(std::get<2>(k)));
  for (const auto& [pid, tid] : used) {
    if (!named_pids.count(pid)) bad.push_back("pid " + std::to_string(pid) + " has no process_name");
    if (!named_tids.count({pid, tid})) bad.push_back("pid/tid " + std::to_string(pid) + "/" + std::to_string(tid) + " has no thread_name");
  }
  // On each track a span either ends before the next begins or encloses it.
  for (auto& [track, v] : spans) {
    std::sort(v.begin(), v.end(), [](const TraceSpan& a, const TraceSpan& b) { return a.ts != b.ts ? a.ts < b.ts : a.end > b.end; });
    std::vector<TraceSpan> stack;
    for (const auto& s : v) {
      while (!stack.empty() && stack.back().end <= s.ts) stack.pop_back();
      if (!stack.empty() && s.end > stack.back().end)
        bad.push_back("X overlap on pid/tid " + std::to_string(track.first) + "/" + std::to_string(track.second) + " at ts " + std::to_string(s.ts) + " ps");
      stack.push_back(s);
    }
  }
  return bad;
}

// The events of `doc` of phase `ph` (and category `cat` when given).
inline std::vector<nlohmann::json> trace_events(const nlohmann::json& doc, const std::string& ph, const std::string& cat = "") {
  std::vector<nlohmann::json> v;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == ph && (cat.empty() || e.value("cat", "") == cat)) v.push_back(e);
  return v;
}

}  // namespace sanvp::test
