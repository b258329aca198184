// What the TDMA tests share: the thesis's networks, stream files from text, one scheduling run.
#pragma once
#include <string>

#include "platform/tdma/schedule_run.hpp"
#include "tb/fbs/fbs_test_util.hpp"

namespace sanvp::tdma::test {

using fbs::test::generate;

inline const std::string kAppendixA = std::string(SANVP_SOURCE_DIR) + "/platform/tdma/appendix-a.streams.yaml";

inline Topology network_a() { return generate("tdma-a", {}); }
inline Topology network_b() { return generate("tdma-b", {}); }

// The streams of `file` scheduled on `t` with up*/down* first-choice routes.
inline ScheduleRun run(const StreamFile& file, const Topology& t, const TdmaParams& p = {}) {
  return run_tdma_schedule(file, t.name, t, updown_routes(t), "up-down", p);
}

inline const Admission& admission(const ScheduleRun& r, std::int64_t id) {
  for (const auto& a : r.schedule.admissions)
    if (a.stream == id) return a;
  throw std::runtime_error("no stream " + std::to_string(id));
}

inline std::vector<std::int64_t> rejected(const ScheduleRun& r) {
  std::vector<std::int64_t> v;
  for (const auto& a : r.schedule.admissions)
    if (!a.admitted) v.push_back(a.stream);
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace sanvp::tdma::test
