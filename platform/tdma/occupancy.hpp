// Which stream holds each (link, slot) of a TDMA cycle while the scheduler builds a schedule. A
// link's row is allocated when first reserved: a large network with few streams stays small.
#pragma once
#include <cstdint>
#include <vector>

namespace sanvp::tdma {

class Occupancy {
 public:
  static constexpr int kFree = -1;
  Occupancy(std::size_t links, std::int64_t cycle) : rows_(links), cycle_(cycle) {}
  std::int64_t cycle() const { return cycle_; }
  // The stream index holding `link` at `slot`, or kFree.
  int at(int link, std::int64_t slot) const {
    const auto& r = rows_[static_cast<std::size_t>(link)];
    return r.empty() ? kFree : r[static_cast<std::size_t>(slot)];
  }
  void set(int link, std::int64_t slot, int stream) {
    auto& r = rows_[static_cast<std::size_t>(link)];
    if (r.empty()) r.assign(static_cast<std::size_t>(cycle_), kFree);
    r[static_cast<std::size_t>(slot)] = stream;
  }

 private:
  std::vector<std::vector<int>> rows_;
  std::int64_t cycle_;
};

}  // namespace sanvp::tdma
