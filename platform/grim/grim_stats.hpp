// Reports of a GRIM run: the firmware's counters by name, the scoreboard and the leak check,
// as JSON and as a printable table.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "platform/grim/grim_run.hpp"

namespace sanvp::grim_host {

const char* stat_name(std::uint32_t i);  // e.g. "retransmits"
nlohmann::json run_report(const GrimRunResult& r, const GrimRunOptions& o);
std::string run_table(const GrimRunResult& r, const GrimRunOptions& o);

}  // namespace sanvp::grim_host
