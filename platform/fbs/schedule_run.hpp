// One `sanvp fbs schedule` run: pick the schedule kind, build it for the network's NICs, check
// it against the run's routes (or the tree's), and report it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "platform/fbs/schedule.hpp"
#include "platform/fbs/schedule_check.hpp"
#include "platform/scenario/network_arg.hpp"

namespace sanvp::fbs {

struct ScheduleRequest {
  std::string kind = "auto";     // sss | hss | auto (sss on a single switch, hss otherwise)
  std::string routes = "run";    // run: the network's routes; tree: tree_routes() of the spanning tree
};

struct ScheduleRun {
  std::string kind;               // sss or hss
  SpanningTree tree;              // hss, and for tree routes
  Schedule schedule;
  std::string routing;            // the routes checked against
  CheckResult check;
};

// Throws UserError for an unknown kind or routes name.
ScheduleRun run_schedule(const NetworkArg& net, const ScheduleRequest& q);
std::string schedule_run_text(const NetworkArg& net, const ScheduleRun& r);
nlohmann::json schedule_run_json(const NetworkArg& net, const ScheduleRun& r);

}  // namespace sanvp::fbs
