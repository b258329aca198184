// RouterArbiter: assigns output ports to routed headers. A header is routed `rd` (switch.rd) after it reaches
// the head of its input buffer; requests for a busy output wait; when an output frees (its
// worm's tail has passed) the OutputArbiter policy (switch.arbiter; round-robin by default)
// picks one of the waiting inputs. Requests and releases of one instant are collected and
// arbitrated together, so the outcome never depends on process order.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "hw/base/time.hpp"
#include "hw/switch/output_arbiter.hpp"

namespace sanvp {

class RouterArbiter {
 public:

  // `inputs` may exceed `outputs`: the switch's barrier unit requests outputs as an extra input.
  RouterArbiter(int inputs, int outputs, std::unique_ptr<OutputArbiter> policy);

  void request(int in, int out, Time now);
  // The output is free again; true if an input waits for it (arbitrate then), false if the
  // arbitration would find nothing to grant.
  bool release(int out);
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
  std::unique_ptr<OutputArbiter> policy_;
  Time& want(int out, int in) { return want_[static_cast<std::size_t>(out) * static_cast<std::size_t>(inputs_) + static_cast<std::size_t>(in)]; }
  const Time& want(int out, int in) const { return want_[static_cast<std::size_t>(out) * static_cast<std::size_t>(inputs_) + static_cast<std::size_t>(in)]; }

  std::vector<Time> want_;              // (output, input) -> waiting since, kNever if not; one block per switch
  std::vector<OutputArbiter::Waiting> waiting_;  // scratch for one arbitration
  std::vector<int> dirty_;              // outputs to arbitrate
  std::vector<char> is_dirty_;
  std::uint64_t grants_ = 0;
};

}  // namespace sanvp
