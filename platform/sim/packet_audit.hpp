// PacketAudit: the end-of-run conservation check. Every packet injected (the test traffic's
// packet table, and every packet a NIC send DMA started) must be delivered, dropped with a
// reason (corrupt, no receive buffer, not a test packet, taken by a barrier unit, consumed by a
// switch for a bad route byte, lost with its end on a cut link: link_faults.hpp), or be
// somewhere in the network: at its source, in a buffer or on a wire. A packet that is none of
// these was lost by the model: a SimError naming it.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "hw/link/packet_ends.hpp"
#include "hw/base/time.hpp"

namespace sanvp {

class Network;
class PacketTable;

class PacketAudit {
 public:
  struct InFlight { std::uint32_t packet; std::string where; };

  explicit PacketAudit(const PacketTable& table) : table_(table) {}
  // A packet seen at its source, in a buffer or on a wire (the first place given is kept).
  void found(std::uint32_t id, const std::string& place);
  // A sink's log of packets whose tail it consumed.
  void ended(const PacketEnds& ends);
  // A NIC at `node` whose send DMA started `started` packets (ids nic_packet_id(node, 0..)).
  void nic_source(std::uint32_t node, std::uint64_t started) { nic_sources_.emplace_back(node, started); }
  // Every test-traffic and NIC packet not delivered or dropped, with where it is, in id order;
  // throws SimError for the first packet that is nowhere (or ended more often than sent).
  std::vector<InFlight> finish(Time now) const;

 private:
  std::vector<InFlight> finish_table(Time now) const;
  void finish_nics(Time now, std::vector<InFlight>& out) const;

  const PacketTable& table_;
  std::unordered_map<std::uint32_t, std::string> where_;
  std::unordered_map<std::uint32_t, std::uint64_t> ended_;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> nic_sources_;
};

// Scans the network's endpoints and switches (sources, input buffers, wires, barrier units)
// into the audit; NIC nodes add themselves (RunAgents::audit).
void audit_network(Network& net, Time now, PacketAudit& audit);

}  // namespace sanvp
