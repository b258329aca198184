// LinkTransmitter: the sending end of a LinkChannel. Enforces one flit per character period and
// obeys STOP/GO: a flit may start at time t only if the last STOP/GO transition effective at or
// before t was GO. Transitions arrive ahead of their effective time (link + flow-controller
// delay), so they are queued and applied lazily.
#pragma once
#include <deque>
#include <functional>

#include "hw/link/link.hpp"

namespace sanvp {

class LinkTransmitter : public ControlReceiver {
 public:
  LinkTransmitter() = default;
  void attach(LinkChannel* ch, std::function<void(Time)> wake) { ch_ = ch; wake_ = std::move(wake); }
  LinkChannel* channel() const { return ch_; }
  bool connected() const { return ch_ != nullptr && ch_->connected(); }

  // Earliest time >= `ready` at which the character period allows the next flit.
  Time next_slot(Time ready) const {
    Time t = last_ == kNever ? ready : std::max(ready, last_ + ch_->timing().cp);
    return t;
  }
  // True if STOP is in force at `now` (applies every transition effective at or before now).
  bool stopped(Time now) {
    while (!pending_.empty() && pending_.front().second <= now) {
      stopped_ = pending_.front().first;
      pending_.pop_front();
    }
    return stopped_;
  }
  // Same question without applying the transitions (for reports).
  bool stopped_at(Time now) const {
    bool st = stopped_;
    for (const auto& [stop, eff] : pending_) if (eff <= now) st = stop;
    return st;
  }
  void send(const Flit& f, Time now) { last_ = now; ch_->send(f, now); }
  Time last_departure() const { return last_; }

  void control(bool stop, Time effective) override {
    pending_.emplace_back(stop, effective);
    if (!stop && wake_) wake_(effective);
  }

 private:
  LinkChannel* ch_ = nullptr;
  std::function<void(Time)> wake_;
  std::deque<std::pair<bool, Time>> pending_;
  bool stopped_ = false;
  Time last_ = kNever;
};

}  // namespace sanvp
