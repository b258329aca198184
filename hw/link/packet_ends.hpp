// PacketEnds: how many times each packet id ended at one sink (its tail consumed there: stored
// by a NIC, dropped for want of a buffer, refused as foreign, or taken by a switch's barrier
// unit). The end-of-run accounting adds these up against what the sources injected, so a
// packet that vanished is an error instead of a quietly smaller count.
#pragma once
#include <cstdint>
#include <unordered_map>

namespace sanvp {

class PacketEnds {
 public:
  void add(std::uint32_t id) { ++count_[id]; }
  const std::unordered_map<std::uint32_t, std::uint32_t>& counts() const { return count_; }

 private:
  std::unordered_map<std::uint32_t, std::uint32_t> count_;  // bounded: NIC ids wrap at 2^16 per node
};

}  // namespace sanvp
