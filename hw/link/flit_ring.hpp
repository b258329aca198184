// FlitRing: the storage of a FlowController. Every flit pushed gets a number (0, 1, ...) and
// stays in one ring, in push (= arrival) order, through three stages: buffered (in the slack
// buffer or on the wire to it), departing (popped, stamped with a departure that may lie ahead)
// and forgotten (departed before the present: it can never count again). Each stage is a range of
// numbers, so sizes are subtractions and any flit is one index away, which the lookahead's
// per-flit questions (FlowController::size_at, arrived_by) need to stay O(1).
#pragma once
#include <cstdint>
#include <vector>

#include "hw/base/time.hpp"
#include "hw/link/flit.hpp"

namespace sanvp {

class FlitRing {
 public:
  struct Entry { Time arrival; Flit flit; };
  struct Slot { Entry entry; Time departure = 0; };

  // Numbers: [kept, popped) departing, [popped, pushed) buffered.
  std::uint64_t kept() const { return kept_; }
  std::uint64_t popped() const { return popped_; }
  std::uint64_t pushed() const { return pushed_; }
  const Slot& at(std::uint64_t g) const { return ring_[g & mask_]; }

  void push(const Entry& e) {
    if (pushed_ - kept_ == size_) grow();
    ring_[pushed_++ & mask_] = Slot{e, 0};
  }
  // The oldest buffered flit becomes departing, leaving at `departure`.
  void pop(Time departure) { ring_[popped_++ & mask_].departure = departure; }
  // The oldest departing flit is forgotten.
  void forget() { ++kept_; }

  // The buffered entries, oldest first (for audits and reports).
  class Buffered {
   public:
    class iterator {
     public:
      iterator(const FlitRing* r, std::uint64_t g) : r_(r), g_(g) {}
      const Entry& operator*() const { return r_->at(g_).entry; }
      const Entry* operator->() const { return &r_->at(g_).entry; }
      iterator& operator++() { ++g_; return *this; }
      bool operator!=(const iterator& o) const { return g_ != o.g_; }
      bool operator==(const iterator& o) const { return g_ == o.g_; }
     private:
      const FlitRing* r_;
      std::uint64_t g_;
    };
    explicit Buffered(const FlitRing* r) : r_(r) {}
    iterator begin() const { return {r_, r_->popped_}; }
    iterator end() const { return {r_, r_->pushed_}; }
    std::size_t size() const { return static_cast<std::size_t>(r_->pushed_ - r_->popped_); }
    bool empty() const { return size() == 0; }
   private:
    const FlitRing* r_;
  };
  Buffered buffered() const { return Buffered(this); }

 private:
  // Capacity doubles when departing and buffered flits fill it (each slot moves to its place
  // under the new mask).
  void grow() {
    std::vector<Slot> bigger(ring_.empty() ? 16 : 2 * ring_.size());
    const std::uint64_t m = bigger.size() - 1;
    for (std::uint64_t g = kept_; g < pushed_; ++g) bigger[g & m] = ring_[g & mask_];
    ring_.swap(bigger);
    mask_ = m;
    size_ = ring_.size();
  }

  std::vector<Slot> ring_;
  std::uint64_t mask_ = 0;
  std::uint64_t size_ = 0;  // ring_.size(), kept apart: a vector's size is a division by the slot size
  std::uint64_t kept_ = 0, popped_ = 0, pushed_ = 0;
};

}  // namespace sanvp
