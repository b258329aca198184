// BarrierCore: the barrier register file of a switch and the BTIN switch rules (paper Figure 4,
// Table 1). The one implementation of the rules; BarrierUnit (clocked, same ports as the RTL
// hw/rtl/barrier_unit.sv) and BarrierUnitTl (event-driven, for the switch model) are two timing
// wrappers around it.
//
// A register holds GID, the parent port P, the C_i bits (parent and children: child switches and
// local member nodes), the A_i arrival bits and the synchronization message. With P of the root
// switch naming the root node's port, Table 1's three switch positions reduce to one rule:
//   reduction:    a REDUCE from a child port sets A_i; when A covers C minus P the register fires a
//                 REDUCE (carrying the data of the last arrival) to P and clears A;
//   distribution: a DISTRIBUTE from P is replicated to every port of C minus P.
// Leaf, intermediate and root switches differ only in what C and P contain.
//
// Messages are held whole in the register (the input never waits). An output message stays
// pending in its register until the port takes it; a register does not fire again while it has
// pending outputs (new arrivals are still recorded). Each output port serves the registers with
// a message for it round-robin. Messages that break the protocol are dropped and counted.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "hw/barrier/barrier_message.hpp"
#include "hw/barrier/config.hpp"

namespace sanvp::barrier {

struct BarrierRegister {
  bool valid = false;
  std::uint8_t gid = 0;
  std::uint8_t parent = 0;     // P
  std::uint64_t cmask = 0;     // C_i
  std::uint64_t arrived = 0;   // A_i
  std::uint64_t pending = 0;   // output ports still to receive `out`
  std::uint8_t adata = 0;      // data of the last REDUCE arrival
  BarrierMessage out;          // the message being forwarded (merged or replicated)
  std::uint64_t expected() const { return cmask & ~(std::uint64_t{1} << parent); }
};

enum class DropReason : std::uint8_t {
  BadType,     // type None or Reserved
  UnknownGid,  // no register holds the GID (no fallback at this switch)
  NotChild,    // REDUCE from a port outside C minus P
  Duplicate,   // REDUCE from a port whose A_i is already set
  NotParent,   // DISTRIBUTE from a port other than P
  Busy,        // DISTRIBUTE while the register still has outputs pending
};
inline constexpr int kDropReasons = 6;
const char* to_string(DropReason r);

class BarrierCore {
 public:
  BarrierCore(int ports, int registers);

  int ports() const { return ports_; }
  int registers() const { return static_cast<int>(regs_.size()); }
  void reset();

  ConfigResponse configure(const ConfigCommand& cmd);
  // A barrier message arrived complete on `port`. Returns why it was dropped, if it was.
  std::optional<DropReason> arrive(int port, std::uint16_t raw);
  // Fires every register whose reduction is complete and whose outputs are drained.
  // Returns the number of registers fired.
  int fire();
  // The register whose message port `port` offers now (round-robin among pending), or -1.
  int selected(int port) const;
  std::optional<BarrierMessage> offer(int port) const;
  // The offered message of `port` left the unit.
  void take(int port);

  const BarrierRegister& reg(int i) const { return regs_[static_cast<std::size_t>(i)]; }
  std::uint64_t busy_mask() const;
  int free_registers() const;
  std::uint64_t drops() const { return drops_; }
  std::uint64_t drops(DropReason r) const { return drop_by_reason_[static_cast<int>(r)]; }
  std::uint64_t fired() const { return fired_; }

 private:
  int find_gid(std::uint8_t gid) const;
  std::optional<DropReason> drop(DropReason r);

  int ports_;
  std::vector<BarrierRegister> regs_;
  std::vector<int> rr_;  // per output port: register index served first next time
  std::uint64_t drops_ = 0, fired_ = 0;
  std::array<std::uint64_t, kDropReasons> drop_by_reason_{};
};

}  // namespace sanvp::barrier
