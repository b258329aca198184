// The hosts' out-of-band control network (the thesis's Ethernet between the hosts, not the
// Myrinet): demands, acknowledgements and the commit of a new schedule travel here between the
// host programs. Deterministic: a host's messages leave its link one after another (64 bytes each
// at tdma.ctl.per_byte), then take tdma.ctl.latency; a receiver's port is not modelled (the
// messages are small and few). Called from the host threads; the receiver waits on its event.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <systemc>
#include <vector>

#include "hw/base/time.hpp"

namespace sanvp::tdma {

struct CtlMsg {
  enum class Kind { kDemand, kAck, kCommit };
  Kind kind = Kind::kDemand;
  std::size_t from = 0;                // node index
  int change = -1;                     // index in the stream file's changes
  std::uint64_t hash = 0;              // ack: the schedule the sender computed and loaded
  std::uint64_t slot = 0;              // commit: the activation boundary (absolute slot)
  std::uint32_t cycle = 0;             // commit: the same as the run's cycle index
  Time arrives = 0;
};

class ControlNet {
 public:
  static constexpr std::uint32_t kMsgBytes = 64;
  ControlNet(std::size_t nodes, Time latency, Time per_byte);
  // Sends now (a host thread); returns its arrival time.
  Time send(std::size_t to, CtlMsg m);
  // A message that has arrived by now, oldest first; false when none.
  bool take(std::size_t node, CtlMsg& m);
  Time next_arrival(std::size_t node) const;  // kNever: none pending
  const sc_core::sc_event& event(std::size_t node) const { return *ev_[node]; }
  // The k-th (from 1) of a burst of messages sent at once by one host arrives this long after.
  Time burst(std::size_t k) const { return static_cast<Time>(k) * kMsgBytes * per_byte_ + latency_; }

 private:
  Time latency_, per_byte_;
  std::vector<Time> tx_free_;                  // per sender: its link is free from
  std::vector<std::deque<CtlMsg>> box_;        // per receiver, by arrival
  std::vector<std::unique_ptr<sc_core::sc_event>> ev_;
};

}  // namespace sanvp::tdma
