// The GRIM test workload: a seeded plan of messages (random destination, channel and size per
// sending node), the host program that sends it and receives its share, and the scoreboard
// that checks every received message: the right stream index (exactly once, in order per
// (source, channel)), its length and every byte.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hw/base/sim_time.hpp"
#include "platform/grim/grim_driver.hpp"

namespace sanvp::grim_host {

struct WorkloadOptions {
  int nodes = 2;
  int senders = -1;                       // nodes 0 .. senders-1 send (-1: every node)
  std::uint32_t channels = 2;
  std::uint32_t messages = 100;           // per sending node
  std::uint32_t min_size = 1, max_size = 8192;
  Time recv_start = 0;                    // receivers post their first buffers this late
  Time recv_delay = 0;                    // host work per received message before its buffer is posted again
  std::uint32_t recv_buffers = grim::kRqEntries;  // receive buffers a host keeps posted
  std::uint64_t seed = 1;
};

// One planned message.
struct Planned {
  std::uint32_t dst, channel, index, size;
};

// The plan: what each node sends, in order, and what each (receiver, source, channel) stream
// must deliver (sizes by stream index).
struct Plan {
  std::vector<std::vector<Planned>> sends;  // by source node
  std::vector<std::map<std::uint32_t, std::vector<std::uint32_t>>> streams;  // by receiver: key src << 8 | channel
  std::vector<std::uint64_t> expected;      // messages each node receives
};
Plan make_plan(const WorkloadOptions& o);

// Tag of stream index `index` of (src, dst, channel): unique per sender, checked by the
// receiver (16 nodes, 4 channels, 2^22 messages per stream).
inline std::uint32_t message_tag(std::uint32_t src, std::uint32_t dst, std::uint32_t channel, std::uint32_t index) {
  return src << 28 | dst << 24 | channel << 22 | (index & 0x3FFFFF);
}
inline std::uint32_t tag_index(std::uint32_t tag) { return tag & 0x3FFFFF; }

// What a node's host saw.
struct NodeScore {
  std::uint64_t sent = 0, send_errors = 0, received = 0, bytes = 0;
  std::uint64_t duplicates = 0, out_of_order = 0, corrupt = 0, unexpected = 0;
  std::vector<std::string> errors;  // the first few, with details
  bool done = false;
  Time finished = 0;
  std::string phase = "not started";
  void fail(std::string s) { if (errors.size() < 10) errors.push_back(std::move(s)); }
};

// Runs node `node`'s part of the plan on its host thread.
void run_node(GrimDriver& drv, int node, const Plan& plan, const WorkloadOptions& o, NodeScore& score);

}  // namespace sanvp::grim_host
