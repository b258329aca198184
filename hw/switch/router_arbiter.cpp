#include "hw/switch/router_arbiter.hpp"

#include <algorithm>

namespace sanvp {

RouterArbiter::RouterArbiter(int inputs, int outputs)
    : inputs_(inputs), owner_(outputs, -1), last_(outputs, inputs - 1),
      want_(outputs, std::vector<char>(inputs, 0)), is_dirty_(outputs, 0) {}

void RouterArbiter::request(int in, int out) {
  want_[out][in] = 1;
  if (!is_dirty_[out]) { is_dirty_[out] = 1; dirty_.push_back(out); }
}

void RouterArbiter::release(int out) {
  owner_[out] = -1;
  if (!is_dirty_[out]) { is_dirty_[out] = 1; dirty_.push_back(out); }
}

std::vector<int> RouterArbiter::waiting(int out) const {
  std::vector<int> v;
  for (int i = 0; i < inputs_; ++i) if (want_[out][i]) v.push_back(i);
  return v;
}

void RouterArbiter::arbitrate(const std::function<void(int, int)>& grant) {
  // Outputs in port order, so simultaneous grants are issued deterministically.
  std::sort(dirty_.begin(), dirty_.end());
  for (int out : dirty_) {
    is_dirty_[out] = 0;
    if (owner_[out] >= 0) continue;
    for (int k = 1; k <= inputs_; ++k) {
      int in = (last_[out] + k) % inputs_;
      if (want_[out][in]) {
        want_[out][in] = 0;
        owner_[out] = in;
        last_[out] = in;
        ++grants_;
        grant(in, out);
        break;
      }
    }
  }
  dirty_.clear();
}

}  // namespace sanvp
