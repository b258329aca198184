#include "hw/switch/router_arbiter.hpp"

#include <algorithm>
#include <stdexcept>

namespace sanvp {

RouterArbiter::RouterArbiter(int inputs, int outputs, std::unique_ptr<OutputArbiter> policy)
    : inputs_(inputs), owner_(outputs, -1), policy_(std::move(policy)),
      want_(static_cast<std::size_t>(outputs) * static_cast<std::size_t>(inputs), kNever), is_dirty_(outputs, 0) {
  if (!policy_) throw std::invalid_argument("RouterArbiter: no output arbitration policy");
}

void RouterArbiter::request(int in, int out, Time now) {
  want(out, in) = now;
  if (!is_dirty_[out]) { is_dirty_[out] = 1; dirty_.push_back(out); }
}

bool RouterArbiter::release(int out) {
  owner_[out] = -1;
  const Time* w = &want(out, 0);
  if (std::none_of(w, w + inputs_, [](Time t) { return t != kNever; })) return false;
  if (!is_dirty_[out]) { is_dirty_[out] = 1; dirty_.push_back(out); }
  return true;
}

std::vector<int> RouterArbiter::waiting(int out) const {
  std::vector<int> v;
  for (int i = 0; i < inputs_; ++i) if (want(out, i) != kNever) v.push_back(i);
  return v;
}

void RouterArbiter::arbitrate(const std::function<void(int, int)>& grant) {
  // Outputs in port order, so simultaneous grants are issued deterministically.
  std::sort(dirty_.begin(), dirty_.end());
  for (int out : dirty_) {
    is_dirty_[out] = 0;
    if (owner_[out] >= 0) continue;
    waiting_.clear();
    for (int in = 0; in < inputs_; ++in)
      if (want(out, in) != kNever) waiting_.push_back(OutputArbiter::Waiting{in, want(out, in)});
    if (waiting_.empty()) continue;
    const int in = waiting_[policy_->choose(out, waiting_)].input;
    want(out, in) = kNever;
    owner_[out] = in;
    ++grants_;
    grant(in, out);
  }
  dirty_.clear();
}

}  // namespace sanvp
