// FabricMonitor: checks, while the network runs, that every link transmitter is work-conserving.
// (The end-of-run packet accounting is PacketAudit, packet_audit.hpp.) On in every test and with `sanvp run --check`.
//
// Work conservation: no link may stay idle for longer than one character period `cp` while its
// downstream is GO and a flit granted to it waits — at a switch output (a granted worm's next
// flit), at a test endpoint's source and at a NIC's send DMA. Each transmitter describes its
// pending flit (LinkTransmitter::Work); the monitor recomputes, from state only, the earliest
// instant the flit could have left,
//     due = max(flit ready, previous departure + cp, start of the current GO),
// and the first time it finds now > due + cp with the flit still waiting, it throws a SimError
// naming the time, the link, the packet and the state it saw. Checks are scheduled at each
// departure, each GO, each new piece of work, and re-armed at each pending flit's deadline, so a
// stall of more than one cp is caught at its deadline; sweep() re-examines every transmitter
// (the run loop calls it at every step) in case a model forgot to report new work.
//
// Conservation (end of run): every packet of the run's packet table was delivered, found corrupt
// (a scoreboard error), or is still somewhere in the network: at its source, in a slack buffer or
// on a wire. A packet in none of these places was lost, and is an error.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "hw/link/transmitter.hpp"
#include "hw/base/wakeup.hpp"

namespace sanvp {

class Network;

class FabricMonitor : public sc_core::sc_module, public LinkTransmitter::Watcher {
 public:
  SC_HAS_PROCESS(FabricMonitor);
  explicit FabricMonitor(sc_core::sc_module_name name);

  // Watches the transmitter of every connected channel of the network.
  void watch(Network& net);
  void watch(LinkTransmitter& tx, std::string name);
  void poke(std::size_t id, Time at) override;
  // Examines every watched transmitter now (throws on a violation).
  void sweep();
  std::uint64_t checks() const { return checks_; }


 private:
  struct Watched { LinkTransmitter* tx; std::string name; Time last_request = kNever, checked_at = kNever; };
  void run_checks();
  void check(Watched& w, Time now);
  void schedule(std::size_t i, Time at);

  std::vector<Watched> watched_;
  std::vector<std::pair<Time, std::size_t>> heap_;  // min-heap of (check time, watched index)
  Wakeup wake_;
  std::uint64_t checks_ = 0;
};

}  // namespace sanvp
