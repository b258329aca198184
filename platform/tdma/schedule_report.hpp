// Reports of a TDMA schedule run: the slot x link table (the thesis's Tables A.2/A.3, slots
// from 0), the admission result of every stream with the reason for each rejection, a summary
// and the checker's verdict; the same as JSON.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "platform/tdma/schedule_run.hpp"

namespace sanvp::tdma {

// Rows = the first `max_rows` slots of the cycle, columns = links holding at least one
// reservation, cells = stream ids ("." free).
std::string slot_table(const TdmaNetwork& net, const std::vector<Stream>& streams, const TdmaSchedule& s, std::int64_t max_rows);
std::string admission_text(const ScheduleRun& r);
std::string summary_text(const ScheduleRun& r);
std::string schedule_text(const ScheduleRun& r, std::int64_t max_rows = 400);  // all of the above with a header
nlohmann::json schedule_json(const ScheduleRun& r);

}  // namespace sanvp::tdma
