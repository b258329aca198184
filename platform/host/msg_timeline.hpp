// The per-message timeline of the messaging benchmark (sanvp msg): what the host drivers and
// the NIC engines did, each event tagged with the message tag read from the packet header in
// NIC SRAM; the one-way latency breakdown built from it; the --timeline file, in the
// trace-event format of every command (platform/sim/timeline.hpp) with message spans added.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/nic/nic.hpp"
#include "platform/host/msg_driver.hpp"
#include "platform/sim/timeline.hpp"

namespace sanvp::host {

class MsgTimeline {
 public:
  struct Event {
    Time t;
    int node;
    std::string what;
    std::uint32_t tag;
    std::uint32_t bytes;
  };

  void add(Time t, int node, std::string what, std::uint32_t tag, std::uint32_t bytes) {
    ev_.push_back({t, node, std::move(what), tag, bytes});
  }
  // First event `what` at `node` with `tag` (kNever if none).
  Time find(int node, const std::string& what, std::uint32_t tag) const;
  // --timeline: records the links of `net` (and, through observe, the NICs) in [from, to).
  void record(Network& net, Time from, Time to, bool firmware, std::uint64_t seed);
  // Records the activity of `node`'s driver and NIC engines from now on.
  void observe(int node, MsgDriver& driver, nic::Nic& nic);
  // Writes the trace-event file (an IoError if it cannot be written whole); needs record().
  void write_json(const std::string& file);

 private:
  void add_messages();
  std::vector<Event> ev_;
  std::unique_ptr<Timeline> rec_;  // null without --timeline
  bool firmware_ = false;
  std::uint64_t seed_ = 0;
};

// Where the one-way latency of message `tag` (n0 -> n1, `hops` switches) went, into the report
// (`report["latency_breakdown"]`) and as text; nothing if an event is missing or out of order.
struct BreakdownInputs {
  std::uint32_t tag = 0, bytes = 0;
  int hops = 0;
  Time switch_delay = 0;  // rd + sd of one switch
  bool irq = false;       // the receiving host waits for interrupts
};
std::string latency_breakdown(const MsgTimeline& tl, const BreakdownInputs& in, nlohmann::json& report);

// "4 B", "4 KiB", "1 MiB".
std::string size_text(std::uint32_t s);
inline double us(Time t) { return static_cast<double>(t) / 1e6; }

}  // namespace sanvp::host
