// ObserverList: the subscribers of one model hook (tests, timelines, measurements may watch the
// same engine at once). Calling an empty list is one vector check, so models keep their
// `if (observer_) observer_(...)` fast path unchanged.
#pragma once
#include <functional>
#include <utility>
#include <vector>

namespace sanvp {

template <typename... Args>
class ObserverList {
 public:
  using Fn = std::function<void(Args...)>;
  void add(Fn fn) { if (fn) fns_.push_back(std::move(fn)); }
  explicit operator bool() const { return !fns_.empty(); }
  // Subscribers in the order they were added.
  template <typename... A>
  void operator()(A&&... a) const {
    for (const Fn& f : fns_) f(a...);
  }

 private:
  std::vector<Fn> fns_;
};

}  // namespace sanvp
