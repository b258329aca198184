// The GRIM test workload: a seeded plan of messages (random destination node and endpoint,
// channel and size per sending endpoint), the endpoint program (a host thread or a PCI
// device's program) that sends it and receives its share, and the scoreboard that checks every
// received message: the right stream index (exactly once, in order per (source endpoint,
// destination endpoint, channel)), its length and every byte. With `am` every message is an
// active message whose handler (registered by name with the master) runs the check.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <systemc>
#include <string>
#include <vector>

#include "hw/base/sim_time.hpp"
#include "platform/grim/grim_driver.hpp"
#include "platform/grim/grim_endpoint.hpp"

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
  std::uint32_t host_credits = 0;         // host-level flow control: packets in flight per destination (0: off, GRIM's optimistic NI flow control)
  std::uint64_t seed = 1;
  std::uint32_t devices = 0;              // PCI device endpoints per node (1..3; device d owns channel 4-d, the host the others)
  std::uint32_t idle_hosts = 0;           // bit n: node n's host only opens its NIC (its devices carry that node's traffic)
  bool am = false;                        // active messages: handlers registered with the master (node 0's host) run the checks
  std::uint32_t am_bogus = 0;             // per sending endpoint: extra messages naming a handler id nobody registered (counted errors)
};

// The channels the host's messages use: `channels`, at most the kChannels - devices the host
// keeps (each device endpoint owns one).
std::uint32_t host_channels(const WorkloadOptions& o);
// The logical channels endpoint `ep` owns with `devices` device endpoints per node (bit c).
std::uint32_t endpoint_channels(std::uint32_t ep, std::uint32_t devices);
// Index of (node, endpoint) in the per-endpoint vectors below.
inline std::size_t ep_slot(std::uint32_t node, std::uint32_t ep) { return std::size_t{node} * grim::kMaxEndpoints + ep; }

// Host-level credit flow control, the baseline GRIM is compared with (paper §3, Figure 3;
// issue 17 part 4): a host injects a message only while it holds credits for its destination,
// one per packet, `credits` per (source, destination) -- NI buffers / nodes, e.g. 128 / 16 = 8 --
// and gets them back when the receiving host has consumed the message (taken its completion),
// so no NI ever holds more packets than it has buffers. Credits travel back out of band and
// at once: the best case for the scheme (a credit message would add a one-way latency).
class HostCredits {
 public:
  HostCredits(int nodes, std::uint32_t credits, std::uint32_t mtu);
  bool enabled() const { return credits_ != 0; }
  std::uint32_t packets(std::uint32_t bytes) const { return bytes == 0 ? 1 : (bytes + mtu_ - 1) / mtu_; }
  // Takes the credits for a message of `bytes` from src to dst; false (nothing taken) if short.
  bool take(std::uint32_t src, std::uint32_t dst, std::uint32_t bytes);
  // dst's host consumed a message of `bytes` from src: its credits go back, src is woken.
  void give(std::uint32_t src, std::uint32_t dst, std::uint32_t bytes);
  sc_core::sc_event& returned(std::uint32_t src) { return *returned_[src]; }
  std::uint64_t waits = 0;  // messages that had to wait for a credit (counted by the workload)

 private:
  std::uint32_t& left(std::uint32_t src, std::uint32_t dst) { return left_[src * nodes_ + dst]; }
  std::uint32_t nodes_, credits_, mtu_;
  std::vector<std::uint32_t> left_;
  std::vector<std::unique_ptr<sc_core::sc_event>> returned_;
};

// One planned message.
struct Planned {
  std::uint32_t dst, channel, index, size;
  std::uint32_t dst_ep = 0;
  bool bogus = false;  // names a handler id nobody registered (am_bogus)
};

// The plan: what each endpoint sends, in order, and what each (receiver, source endpoint,
// channel) stream must deliver (sizes by stream index). Vectors are indexed by ep_slot.
struct Plan {
  std::vector<std::vector<Planned>> sends;  // by sending endpoint
  std::vector<std::map<std::uint32_t, std::vector<std::uint32_t>>> streams;  // by receiving endpoint: key stream_key(src, src_ep, channel)
  std::vector<std::uint64_t> expected;      // messages each endpoint receives (bogus ones included)
  std::vector<std::uint64_t> bogus;         // of which name an unknown handler
  std::uint32_t participants = 0;           // endpoints that run the workload (AM registrations the master waits for)
};
inline std::uint32_t stream_key(std::uint32_t src, std::uint32_t src_ep, std::uint32_t channel) { return src << 16 | src_ep << 8 | channel; }
Plan make_plan(const WorkloadOptions& o);

// Tag of stream index `index` of (src, dst, channel) to endpoint dst_ep: unique per sending
// endpoint, checked by the receiver (16 nodes, 4 channels, 4 endpoints, 2^20 messages per stream).
inline std::uint32_t message_tag(std::uint32_t src, std::uint32_t dst, std::uint32_t channel, std::uint32_t index, std::uint32_t dst_ep = 0) {
  return src << 28 | dst << 24 | channel << 22 | dst_ep << 20 | (index & 0xFFFFF);
}
inline std::uint32_t tag_index(std::uint32_t tag) { return tag & 0xFFFFF; }

// What an endpoint's program saw.
struct NodeScore {
  std::uint64_t sent = 0, send_errors = 0, received = 0, bytes = 0;
  std::uint64_t duplicates = 0, out_of_order = 0, corrupt = 0, unexpected = 0;
  std::uint64_t am_handled = 0, am_incr = 0, am_unknown = 0;  // handlers run (of which "grim.incr"), unknown ids
  std::uint32_t am_handlers = 0;                               // ids in the master's table as this endpoint received it
  std::vector<std::string> am_errors;                          // the first unknown ids, with their source
  std::vector<std::string> errors;  // the first few, with details
  bool done = false;
  Time finished = 0;
  std::string phase = "not started";
  void fail(std::string s) { if (errors.size() < 10) errors.push_back(std::move(s)); }
};

// Runs endpoint `ep`'s part of the plan on node `node` (its host thread or device program;
// under host credits if enabled). Opens the endpoint first.
void run_node(GrimEndpoint& ep, int node, const Plan& plan, const WorkloadOptions& o, NodeScore& score, HostCredits& credits);

}  // namespace sanvp::grim_host
