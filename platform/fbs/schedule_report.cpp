#include "platform/fbs/schedule_report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace sanvp::fbs {
namespace {

const char* const kArrow = "\u21d2";  // ⇒, one column wide, three bytes

// Display columns (the arrow counts one).
std::size_t columns(const std::string& s) {
  std::size_t c = s.size();
  for (std::size_t p = s.find(kArrow); p != std::string::npos; p = s.find(kArrow, p + 1)) c -= 2;
  return c;
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t c = columns(s);
  return s + std::string(c < width ? width - c : 0, ' ');
}

const char* kind_name(Violation::Kind k) {
  switch (k) {
    case Violation::Kind::LinkConflict: return "link-conflict";
    case Violation::Kind::MissingPrecedence: return "missing-precedence";
    case Violation::Kind::BadMessage: break;
  }
  return "bad-message";
}

nlohmann::json message_json(const Message& m) { return {{"slot", m.slot}, {"src", m.src}, {"dst", m.dst}}; }

}  // namespace

std::string schedule_table(const Schedule& s, const std::vector<int>& nics) {
  std::map<int, std::size_t> column;
  for (std::size_t i = 0; i < nics.size(); ++i) column[nics[i]] = i;
  std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(s.slots), std::vector<std::string>(nics.size()));
  std::size_t width = 4;
  for (const auto& m : s.messages) {
    const auto c = column.find(m.src);
    const int row = m.slot - s.first_slot;
    if (c == column.end() || row < 0 || row >= s.slots) continue;
    auto& cell = cells[static_cast<std::size_t>(row)][c->second];
    cell += fmt::format("{}{}{}{}", cell.empty() ? "" : ",", m.src, kArrow, m.dst);
    width = std::max(width, columns(cell));
  }
  for (int n : nics) width = std::max(width, fmt::format("NIC{}", n).size());
  std::string out = "time slot";
  for (int n : nics) out += " " + pad(fmt::format("NIC{}", n), width);
  out += "\n";
  for (int r = 0; r < s.slots; ++r) {
    std::string line = pad(std::to_string(s.first_slot + r), 9);
    for (const auto& cell : cells[static_cast<std::size_t>(r)]) line += " " + pad(cell, width);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string steps_text(const std::vector<HssStep>& steps) {
  std::string s;
  for (const auto& st : steps)
    s += fmt::format("  {:<10} level {}: BBPs over the leaders of each level-{} switch, slots {}..{}\n", st.phase, st.level, st.level,
                     st.slot, st.slot + st.length - 1);
  return s;
}

nlohmann::json schedule_json(const Schedule& s) {
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : s.messages) msgs.push_back(message_json(m));
  return {{"kind", s.kind}, {"slots", s.slots}, {"first_slot", s.first_slot}, {"messages", msgs}};
}

nlohmann::json steps_json(const std::vector<HssStep>& steps) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& st : steps) j.push_back({{"phase", st.phase}, {"level", st.level}, {"slot", st.slot}, {"length", st.length}});
  return j;
}

nlohmann::json check_json(const CheckResult& r) {
  nlohmann::json v = nlohmann::json::array();
  for (const auto& x : r.violations) {
    nlohmann::json j{{"kind", kind_name(x.kind)}, {"text", format_violation(x)}};
    if (x.kind == Violation::Kind::LinkConflict) j.update({{"slot", x.first.slot}, {"first", message_json(x.first)}, {"second", message_json(x.second)}, {"link", x.link}, {"more_links", x.more_links}});
    if (x.kind == Violation::Kind::MissingPrecedence) j.update({{"from", x.from}, {"to", x.to}});
    if (x.kind == Violation::Kind::BadMessage) j["message"] = message_json(x.first);
    v.push_back(j);
  }
  return {{"ok", r.ok()}, {"nics", r.nics}, {"conflicts", r.conflicts()}, {"missing_precedences", r.missing()}, {"violations", v}};
}

}  // namespace sanvp::fbs
