#include "platform/sim/packet_audit.hpp"

#include <fmt/format.h>

#include "hw/endpoint/packet.hpp"
#include "hw/link/flit.hpp"
#include "hw/base/error.hpp"
#include "platform/sim/network.hpp"

namespace sanvp {

void PacketAudit::found(std::uint32_t id, const std::string& place) {
  if (id != kNoPacket) where_.emplace(id, place);
}

void PacketAudit::ended(const PacketEnds& ends) {
  for (const auto& [id, n] : ends.counts()) ended_[id] += n;
}

std::vector<PacketAudit::InFlight> PacketAudit::finish(Time now) const {
  std::vector<InFlight> out = finish_table(now);
  finish_nics(now, out);
  return out;
}

// Released packets (PacketTable::release) were delivered intact: only the kept ones are checked.
std::vector<PacketAudit::InFlight> PacketAudit::finish_table(Time now) const {
  std::vector<InFlight> out;
  table_.for_each_kept([&](std::uint32_t p, const PacketRecord& r) {
    if (r.deliveries > 0 || r.corrupt || r.dropped || ended_.count(p)) return;
    const auto w = where_.find(p);
    if (w == where_.end())
      throw SimError(fmt::format("conservation check failed at {}: packet {} (n{}->n{}, {} flits, created {}) was neither "
                                 "delivered nor corrupt and is nowhere in the network (not at its source, in a buffer or on a wire)",
                                 format_time(now), p, r.src, r.dst, r.wire_len(), format_time(r.created)));
    out.push_back(InFlight{p, w->second});
  });
  return out;
}

// A NIC's ids wrap every 2^16 packets: sequence k was used `started / 2^16` times, once more
// when k < started % 2^16. Each use has ended at a sink or is still in the network.
void PacketAudit::finish_nics(Time now, std::vector<InFlight>& out) const {
  constexpr std::uint64_t kIds = std::uint64_t{kNicSeqMask} + 1;
  for (const auto& [node, started] : nic_sources_) {
    const std::uint64_t ids = std::min(started, kIds);
    for (std::uint64_t k = 0; k < ids; ++k) {
      const std::uint32_t id = nic_packet_id(node, k);
      const std::uint64_t used = started / kIds + (k < started % kIds ? 1 : 0);
      const auto e = ended_.find(id);
      const std::uint64_t ended = e == ended_.end() ? 0 : e->second;
      const auto w = where_.find(id);
      const std::uint64_t here = w == where_.end() ? 0 : 1;
      if (ended + here == used) {
        if (here) out.push_back(InFlight{id, w->second});
        continue;
      }
      throw SimError(fmt::format("conservation check failed at {}: NIC packet n{}#{} (id 0x{:08x}): sent {} time(s), "
                                 "ended at a receiver {} time(s), {} in the network",
                                 format_time(now), node, k, id, used, ended, here ? "and is still" : "not"));
    }
  }
}

void audit_network(Network& net, Time now, PacketAudit& audit) {
  for (int n = 0; n < net.nodes(); ++n) {
    if (net.is_external(n)) continue;
    TrafficEndpoint& e = net.node(n);
    if (e.sending_packet() >= 0) audit.found(static_cast<std::uint32_t>(e.sending_packet()), fmt::format("n{} source (sending)", n));
    for (std::uint32_t p : e.queued_packets()) audit.found(p, fmt::format("n{} source queue", n));
    for (const auto& b : e.input_buffer().entries()) audit.found(b.flit.packet, fmt::format("n{}.in buffer", n));
    audit.ended(e.foreign_ends());
  }
  for (int s = 0; s < net.switches(); ++s) {
    for (int p = 0; p < net.switch_ports(s); ++p)
      for (const auto& b : net.sw(s).input_buffer(p).entries())
        audit.found(b.flit.packet, b.arrival > now ? fmt::format("link into sw{}.p{}", s, p) : fmt::format("sw{}.p{}.in buffer", s, p));
    audit.ended(net.sw(s).barrier_ends());
    audit.ended(net.sw(s).consumed_ends());
  }
  for (const auto& c : net.channels())
    if (c->faults()) audit.ended(c->faults()->lost_ends());
}

}  // namespace sanvp
