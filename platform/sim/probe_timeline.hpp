// The probe timeline of a run: every probe of every NIC (hw/nic/probe.hpp) in global-time order,
// written as CSV (time_ps,node,rtc,tag,value) or JSON, and summarized in the report. Cores run
// ahead of SystemC time by up to a quantum, so probes arrive out of order across NICs: the
// timeline sorts by (time, node, arrival) when it is written.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/nic/probe.hpp"

namespace sanvp {

class ProbeTimeline {
 public:
  nic::ProbeSink sink() {
    return [this](const nic::ProbeRecord& r) { records_.push_back(r); };
  }
  // In global-time order (stable: one NIC's probes of one instant keep their order).
  std::vector<nic::ProbeRecord> sorted() const;
  std::string csv() const;
  nlohmann::json json() const;
  // CSV when `path` ends in .csv, JSON otherwise.
  std::string text_for(const std::string& path) const;
  // Per-tag counts for the report.
  nlohmann::json summary() const;

 private:
  std::vector<nic::ProbeRecord> records_;
};

}  // namespace sanvp
