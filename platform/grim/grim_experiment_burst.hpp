// The GRIM paper's LogP measurement (§3, Figure 3): hosts inject bursts of small messages and
// time the injection. o_s = host time inside one send call that did not have to wait (the PIO
// of the send-queue entry and doorbell); gap(N) = time to inject a burst of N messages / N, the
// paper's definition ("the total time required to inject a burst"), from the sender's view; the
// steady-state gap is the slope over the burst's second half. Nodes 1..senders each burst to
// node 0 in a network of `nodes` hosts on one switch, under GRIM's optimistic NI flow control or
// host credits (HostCredits, returned when node 0's host has consumed a message). Node 0's host
// re-posts every buffer at once. Every message is checked: exactly once, in order per sender.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "hw/base/params.hpp"
#include "platform/fw/image.hpp"
#include "platform/grim/grim_driver.hpp"

namespace sanvp::grim_host {

struct GrimBurstOptions {
  GrimConfig grim;
  int nodes = 16;
  int senders = 1;              // nodes 1..senders burst to node 0
  std::uint32_t burst = 64;     // messages per sender
  std::uint32_t size = 4;       // bytes per message
  std::uint32_t credits = 0;    // host credits per destination (0: GRIM's optimistic NI flow control)
  double packet_loss = 0;       // probability a data packet is lost (fault.drop per flit is derived from it)
  std::uint64_t seed = 1;
  Time limit = 5000 * kMs;
};

// Flits of a data packet of `size` payload bytes that a flit drop can hit on its way through
// `switches` switches (route bytes, header, payload; never the last flit, the CRC), and the
// per-flit rate that loses such a packet with probability `packet_loss`.
std::uint32_t droppable_flits(std::uint32_t size, int switches);
double flit_drop_rate(double packet_loss, std::uint32_t size, int switches);

struct GrimBurstResult {
  int exit_code = 0;  // 0 ok, 3 lost/duplicated/out-of-order message, firmware fault or time limit
  nlohmann::json report;
  std::string table;
};

// `pv` may carry further --set overrides (nic.core.clock, ...); fault.drop is set from packet_loss.
GrimBurstResult run_grim_burst(ParamValues& pv, const fw::Image& image, const GrimBurstOptions& o);

}  // namespace sanvp::grim_host
