#include "platform/grim/grim_stats.hpp"

#include <fmt/format.h>

namespace sanvp::grim_host {

const char* stat_name(std::uint32_t i) {
  static const char* const kNames[grim::kStatWords] = {
      "data_sent",     "retransmits", "acks_sent", "nacks_sent",        "acks_received", "nacks_received", "timeouts",
      "bad_dropped",   "gap_dropped", "dup_dropped", "nobuf_dropped",   "accepted",      "delivered",      "pool_free",
      "pool_min_free", "send_free",   "misrouted", "backoffs",          "error",         "send_refused",   "no_endpoint"};
  return i < grim::kStatWords ? kNames[i] : "?";
}

namespace {
nlohmann::json score_json(const NodeScore& s) {
  return {{"finished", s.done}, {"messages_sent", s.sent}, {"messages_received", s.received}, {"bytes_received", s.bytes},
          {"duplicates", s.duplicates}, {"out_of_order", s.out_of_order}, {"corrupt", s.corrupt}, {"unexpected", s.unexpected},
          {"send_errors", s.send_errors}, {"errors", s.errors}, {"am_handled", s.am_handled}, {"am_incr", s.am_incr},
          {"am_unknown", s.am_unknown}, {"am_handlers", s.am_handlers}, {"am_errors", s.am_errors}};
}

std::string score_line(const std::string& who, const NodeScore& s) {
  std::string t = fmt::format("{:>6}: sent {}, received {} ({} B)", who, s.sent, s.received, s.bytes);
  if (s.am_handled || s.am_unknown) t += fmt::format(", handlers run {} (grim.incr {}), unknown ids {}", s.am_handled, s.am_incr, s.am_unknown);
  t += "\n";
  for (const auto& e : s.errors) t += "     " + e + "\n";
  for (const auto& e : s.am_errors) t += "     " + e + "\n";
  return t;
}
}  // namespace

nlohmann::json run_report(const GrimRunResult& r, const GrimRunOptions& o) {
  nlohmann::json nodes = nlohmann::json::array();
  for (std::size_t n = 0; n < r.nodes.size(); ++n) {
    const NodeResult& x = r.nodes[n];
    nlohmann::json fw = nlohmann::json::object();
    for (std::uint32_t i = 0; i < grim::kStatWords; ++i) fw[stat_name(i)] = x.stats[i];
    const NodeScore& s = x.score;
    nodes.push_back({{"node", n}, {"finished", s.done}, {"messages_sent", s.sent}, {"messages_received", s.received},
                     {"bytes_received", s.bytes}, {"duplicates", s.duplicates}, {"out_of_order", s.out_of_order},
                     {"corrupt", s.corrupt}, {"unexpected", s.unexpected}, {"send_errors", s.send_errors}, {"errors", s.errors},
                     {"leaked", x.leaked}, {"firmware", fw}, {"instructions", x.instructions},
                     {"packets_sent", x.packets_sent}, {"packets_received", x.packets_received}});
    if (!x.corruption_cause.empty()) nodes.back()["corruption_cause"] = x.corruption_cause;
    if (!x.devices.empty() || o.work.am) {
      nlohmann::json eps = nlohmann::json::array();
      for (const auto& d : x.devices) eps.push_back(score_json(d));
      nodes.back()["device_endpoints"] = eps;
      nodes.back()["am"] = {{"handled", s.am_handled}, {"incr", s.am_incr}, {"unknown", s.am_unknown}, {"handlers", s.am_handlers}};
      nodes.back()["host_pio_after_open"] = x.host_pio_after_open;
      nodes.back()["host_pio"] = x.host_pio;
    }
  }
  nlohmann::json j{{"seed", o.work.seed},          {"nodes_count", o.work.nodes}, {"channels", host_channels(o.work)},
                   {"messages_per_sender", o.work.messages}, {"planned", r.planned},   {"delivered", r.delivered},
                   {"finished_ps", r.finished},    {"end_ps", r.end},             {"exit_code", r.exit_code},
                   {"host_credits", o.work.host_credits}, {"credit_waits", r.credit_waits}, {"link_crc", r.link_crc},
                   {"link_damage", {{"damaged_packets_received", r.damaged}, {"undetected_corruptions", r.undetected},
                                    {"undetected_losses", r.undetected_lost}, {"undetected", r.undetected_list}}},
                   {"nodes", nodes}};
  if (o.work.devices || o.work.am) {
    j["device_endpoints"] = o.work.devices;
    j["idle_hosts"] = o.work.idle_hosts;
    j["active_messages"] = o.work.am;
    j["am_unknown"] = r.am_unknown;
    j["am_bogus_planned"] = r.bogus_planned;
  }
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

std::string run_table(const GrimRunResult& r, const GrimRunOptions& o) {
  std::string t = fmt::format("GRIM: {} nodes, {} channels, {} messages per sender ({}..{} B), mtu {}, seed {}\n", o.work.nodes,
                              host_channels(o.work), o.work.messages, o.work.min_size, o.work.max_size, o.grim.mtu, o.work.seed);
  t += o.work.host_credits ? fmt::format("flow control: host credits, {} packet(s) in flight per destination ({} messages waited for one)\n",
                                         o.work.host_credits, r.credit_waits)
                           : std::string("flow control: optimistic, in the NIs (NACK and go-back-N)\n");
  if (o.work.devices)
    t += fmt::format("endpoints: the host (channels {:#x}; idle hosts mask {:#x}) and {} PCI device(s) per node\n",
                     endpoint_channels(0, o.work.devices), o.work.idle_hosts, o.work.devices);
  if (o.work.am) t += fmt::format("active messages: handlers registered with n0.e0; {} unknown ids counted ({} sent as such)\n", r.am_unknown, r.bogus_planned);
  t += fmt::format("delivered {} of {} messages; hosts done at {}, drained to {}\n", r.delivered, r.planned, format_time(r.finished),
                   format_time(r.end));
  t += fmt::format("link CRC {}: {} damaged packets reached a NIC; undetected by the CRC: {} corruptions, {} with flits lost "
                   "(the firmware's length check drops those)\n", r.link_crc, r.damaged, r.undetected, r.undetected_lost);
  for (const auto& u : r.undetected_list) t += "  undetected: " + u + "\n";
  t += fmt::format("{:>4} {:>9} {:>9} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>7} {:>6} {:>5} {:>12}\n", "node", "data", "retrans",
                   "acks", "nacks", "tmouts", "bad", "gap", "dup", "nobuf", "pool", "leak", "instructions");
  for (std::size_t n = 0; n < r.nodes.size(); ++n) {
    const Stats& s = r.nodes[n].stats;
    t += fmt::format("{:>4} {:>9} {:>9} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>7} {:>6} {:>5} {:>12}\n", n, s[grim::kStatDataSent],
                     s[grim::kStatRetransmits], s[grim::kStatAcksSent], s[grim::kStatNacksSent], s[grim::kStatTimeouts],
                     s[grim::kStatBadDropped], s[grim::kStatGapDropped], s[grim::kStatDupDropped], s[grim::kStatNoBufDropped],
                     fmt::format("{}/{}", s[grim::kStatPoolMin], o.grim.pool), r.nodes[n].leaked ? "YES" : "no", r.nodes[n].instructions);
    if (r.nodes[n].devices.empty() && !o.work.am) {
      for (const auto& e : r.nodes[n].score.errors) t += "     " + e + "\n";
      continue;
    }
    t += score_line(fmt::format("n{}.e0", n), r.nodes[n].score);
    for (std::size_t d = 0; d < r.nodes[n].devices.size(); ++d) t += score_line(fmt::format("n{}.e{}", n, d + 1), r.nodes[n].devices[d]);
  }
  return t;  // r.error goes to stderr (grim_command.cpp)
}

}  // namespace sanvp::grim_host
