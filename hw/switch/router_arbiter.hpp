// RouterArbiter: assigns output ports to routed headers. A header is routed `rd` after it reaches
// the head of its input buffer; requests for a busy output wait; when an output frees (its
// worm's tail has passed) the waiting inputs are served round-robin, starting after the input
// granted last. Requests and releases of one instant are collected and arbitrated together, so
// the outcome never depends on process order.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "platform/core/params.hpp"

namespace sanvp {

class RouterArbiter {
 public:
  static inline const ParamRegistrar params{{
      {"switch", "rd", ParamType::Time, "ns", "100ns", "routing delay: header at buffer head to output request"},
      {"switch", "arbiter", ParamType::String, "", "round-robin", "output arbitration policy (round-robin)"},
  }};

  // `inputs` may exceed `outputs`: the switch's barrier unit requests outputs as an extra input.
  RouterArbiter(int inputs, int outputs);

  void request(int in, int out);
  void release(int out);
  bool busy(int out) const { return owner_[out] >= 0; }
  int owner(int out) const { return owner_[out]; }
  // Input waiting for `out`, for hung-network reports; -1 if none.
  std::vector<int> waiting(int out) const;
  bool has_work() const { return !dirty_.empty(); }

  // Grants every free output that has waiting inputs; calls grant(in, out) for each.
  void arbitrate(const std::function<void(int in, int out)>& grant);
  std::uint64_t grants() const { return grants_; }

 private:
  int inputs_;
  std::vector<int> owner_;              // output -> input holding it, -1 if free
  std::vector<int> last_;               // output -> input granted last (round-robin pointer)
  std::vector<std::vector<char>> want_; // output -> inputs waiting for it (size inputs_)
  std::vector<int> dirty_;              // outputs to arbitrate
  std::vector<char> is_dirty_;
  std::uint64_t grants_ = 0;
};

}  // namespace sanvp
