#include "platform/sim/probe_timeline.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace sanvp {

std::vector<nic::ProbeRecord> ProbeTimeline::sorted() const {
  std::vector<nic::ProbeRecord> v = records_;
  std::stable_sort(v.begin(), v.end(), [](const nic::ProbeRecord& a, const nic::ProbeRecord& b) {
    return a.time != b.time ? a.time < b.time : a.node < b.node;
  });
  return v;
}

std::string ProbeTimeline::csv() const {
  std::string out = "time_ps,node,rtc,tag,value\n";
  for (const auto& r : sorted()) out += fmt::format("{},{},{},{},{}\n", r.time, r.node, r.rtc, r.tag, r.value);
  return out;
}

nlohmann::json ProbeTimeline::json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : sorted())
    rows.push_back({{"time_ps", r.time}, {"node", r.node}, {"rtc", r.rtc}, {"tag", r.tag}, {"value", r.value}});
  return {{"columns", {"time_ps", "node", "rtc", "tag", "value"}}, {"probes", std::move(rows)}};
}

std::string ProbeTimeline::text_for(const std::string& path) const {
  const bool is_csv = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  return is_csv ? csv() : json().dump(1) + "\n";
}

nlohmann::json ProbeTimeline::summary() const {
  std::map<std::uint32_t, std::uint64_t> per_tag;
  for (const auto& r : records_) ++per_tag[r.tag];
  nlohmann::json tags = nlohmann::json::object();
  for (const auto& [tag, n] : per_tag) tags[std::to_string(tag)] = n;
  return {{"count", records_.size()}, {"per_tag", std::move(tags)}};
}

}  // namespace sanvp
