// The measurement of a TDMA run from the fabric's own records, in global time (never the
// firmware's clock): every NIC's send DMA (each packet's first and last byte departing, its bytes
// in SRAM: kind, slot, route) and receive DMA (its last byte stored), and every switch's grants
// (which packet got which output when). From them, per packet: the waits of its header at each
// switch output,
//   request at hop 0 = first byte departs + ld + rd, at hop k = grant at hop k-1 + sd + ld + rd,
//   wait = grant - request (0 when the way was free: the grant is in the same instant),
// what held it up (the packet last granted that output; else the worm ahead of it in the same
// input buffer: the previous one through the link it came by, or its NIC's previous packet), and
// the STOP-held time of its body (last byte stored - the unblocked arrival after its last grant),
// which counts as its header's waits did. With early sending, a wait behind a packet of an earlier
// slot before the packet's own slot start (the master's boundary) is the designed early-sending
// wait (T_b); every other wait is blocking, and the earliest blocking wait is the first collision.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "hw/nic/nic.hpp"
#include "hw/nic/probe.hpp"
#include "platform/sim/network.hpp"
#include "platform/tdma/tdma_run.hpp"

namespace sanvp::tdma {

class RunMeter {
 public:
  explicit RunMeter(std::shared_ptr<const TdmaRunPlan> plan);
  void watch_nic(std::size_t index, nic::Nic& n);  // node index in plan.sync.nodes
  void watch_switches(Network& net);
  void add_probe(const nic::ProbeRecord& r);
  TdmaRunResults analyse(const std::vector<TdmaNodeOutcome>& outcomes) const;

  struct Grant { int sw = 0, out = 0; Time at = 0; std::uint32_t packet = 0; };

 private:
  struct Rx { std::uint32_t src = 0, dst = 0, slot = 0, type = 0; Time at = 0; };
  Time release_time(std::uint64_t slot) const;
  std::vector<RunPhase> phases() const;                      // from the committed changes
  RunPhase phase_of(std::uint64_t slot) const;
  std::int64_t stream_at(std::size_t node_index, std::uint64_t slot) const;  // -1: none
  void switches(TdmaRunResults& res) const;
  const Grant* last_before(int sw, int out, Time t, std::uint32_t not_packet) const;  // last grant of (sw, out) at or before t  // global time of the master's slot boundary
  std::vector<PacketRecord> packets() const;
  // Packets by their fabric id; the 16-bit ids repeat every 65536 packets of a NIC, so each id
  // lists its packets in send order and a lookup takes the last one sent before the instant.
  using ById = std::map<std::uint32_t, std::vector<const PacketRecord*>>;
  static const PacketRecord* sent_before(const ById& by_id, std::uint32_t id, Time t);
  void waits(PacketRecord& p, TdmaRunResults& res, const ById& by_id) const;
  void stream_results(const std::vector<PacketRecord>& pk, const std::vector<TdmaNodeOutcome>& outcomes, TdmaRunResults& res) const;
  void staging(const std::vector<TdmaNodeOutcome>& outcomes, TdmaRunResults& res) const;
  void best_effort(const std::vector<PacketRecord>& pk, TdmaRunResults& res) const;
  void timed_sends(const std::vector<PacketRecord>& pk, TdmaRunResults& res) const;

  std::shared_ptr<const TdmaRunPlan> plan_;
  std::vector<std::vector<PacketRecord>> sent_;   // per node index, in send order
  std::vector<Rx> rx_;
  std::map<std::uint32_t, std::vector<Grant>> grants_;                 // packet id -> its grants in time order
  std::map<std::pair<int, int>, std::vector<Grant>> port_grants_;      // (switch, output) -> grants in time order
  std::vector<std::vector<std::map<std::uint32_t, std::int64_t>>> stream_at_;  // per version, node index: slot position -> stream
  std::map<std::uint64_t, std::vector<Time>> switch_at_;             // activation slot -> per node index: the boundary (global)
  std::vector<std::vector<nic::ProbeRecord>> staged_probes_;           // per node index: kProbeStaged/StageMiss
  nic::ProbeRecord master_probe_{};
  bool have_master_ = false;
};

}  // namespace sanvp::tdma
