// Text and JSON of a schedule and its check: the table in the layout of the FBS paper's Tables 1
// and 2 (rows = time slots, one column per NIC, cells "s⇒d"), the HSS steps, the verdict.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/fbs/schedule.hpp"
#include "platform/fbs/schedule_check.hpp"

namespace sanvp::fbs {

// One row per slot from first_slot, one column per NIC of `nics` (ascending), a cell per
// message by its sender; a NIC that sends nothing in a slot leaves its cell empty.
std::string schedule_table(const Schedule& s, const std::vector<int>& nics);
std::string steps_text(const std::vector<HssStep>& steps);

nlohmann::json schedule_json(const Schedule& s);
nlohmann::json steps_json(const std::vector<HssStep>& steps);
nlohmann::json check_json(const CheckResult& r);

}  // namespace sanvp::fbs
