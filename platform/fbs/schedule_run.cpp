#include "platform/fbs/schedule_run.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "platform/fbs/schedule_report.hpp"

namespace sanvp::fbs {

ScheduleRun run_schedule(const NetworkArg& net, const ScheduleRequest& q) {
  if (q.kind != "auto" && q.kind != "sss" && q.kind != "hss") throw UserError(fmt::format("--kind: unknown '{}' (sss, hss, auto)", q.kind));
  if (q.routes != "run" && q.routes != "tree") throw UserError(fmt::format("--routes: unknown '{}' (run, tree)", q.routes));
  ScheduleRun r;
  r.kind = q.kind == "auto" ? (net.topo.switches.size() == 1 ? "sss" : "hss") : q.kind;
  r.tree = spanning_tree(net.topo, net.nics);
  r.schedule = r.kind == "sss" ? sss(net.nics) : hss(r.tree);
  if (q.routes == "tree") {
    r.routing = "tree";
    r.check = check_schedule(r.schedule, net.topo, tree_routes(net.topo, r.tree), net.nics);
  } else {
    r.routing = net.routing;
    r.check = check_schedule(r.schedule, net.topo, net.routes, net.nics);
  }
  return r;
}

std::string schedule_run_text(const NetworkArg& net, const ScheduleRun& r) {
  std::string s = fmt::format("FBS {} schedule of {}: {} NICs, {} time slots, {} messages\n", r.kind, net.name, net.nics.size(),
                              r.schedule.slots, r.schedule.messages.size());
  if (r.kind == "hss") {
    s += fmt::format("spanning tree: up*/down* BFS tree, root sw{}, {} levels (level = height above the NICs at 0)\n", r.tree.root,
                     r.tree.levels);
    s += steps_text(hss_steps(r.tree));
  }
  s += "\n" + schedule_table(r.schedule, net.nics);
  s += fmt::format("\ncheck against the {} routes (self-sends: U-turn):\n", r.routing);
  return s + format_check(r.check);
}

nlohmann::json schedule_run_json(const NetworkArg& net, const ScheduleRun& r) {
  nlohmann::json j{{"kind", r.kind}, {"nics", net.nics}, {"routing", r.routing}, {"schedule", schedule_json(r.schedule)},
                   {"check", check_json(r.check)}};
  if (r.kind == "hss") j["tree"] = {{"root", r.tree.root}, {"levels", r.tree.levels}, {"steps", steps_json(hss_steps(r.tree))}};
  return j;
}

}  // namespace sanvp::fbs
