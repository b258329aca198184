// LinkTransmitter: the sending end of a LinkChannel. Enforces one flit per character period and
// obeys STOP/GO: a flit may start at time t only if the last STOP/GO transition effective at or
// before t was GO. Transitions arrive ahead of their effective time (link + flow-controller
// delay), so they are queued and applied lazily.
//
// For the work-conservation monitor (platform/sim/fabric_monitor.hpp) the owner describes its
// pending work (`set_work`) and reports when a flit becomes ready (`work_at`); departures and GO
// report themselves. None of this costs anything when no watcher is attached.
#pragma once
#include <vector>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

#include "hw/link/link.hpp"

namespace sanvp {

class LinkTransmitter : public ControlReceiver {
 public:
  // The flit the owner wants to send next: ready (not counting the character period or STOP)
  // at `ready`, kNever if there is none.
  struct Work { Time ready = kNever; std::uint32_t packet = 0; };
  // Sees every moment at which this transmitter should be examined.
  class Watcher {
   public:
    virtual ~Watcher() = default;
    virtual void poke(std::size_t id, Time at) = 0;  // id: as given to set_watcher
  };

  LinkTransmitter() = default;
  void attach(LinkChannel* ch, std::function<void(Time)> wake) {
    ch_ = ch;
    wake_ = std::move(wake);
    if (ch_) ch_->set_transmitter(this);
  }
  void set_work(std::function<Work()> fn) { work_ = std::move(fn); }
  Work work() const { return work_ ? work_() : Work{}; }
  void set_watcher(Watcher* w, std::size_t id) { watcher_ = w; watch_id_ = id; }
  bool watched() const { return watcher_ != nullptr; }
  // Owner: a flit becomes ready to leave at `t`.
  void work_at(Time t) { if (watcher_) watcher_->poke(watch_id_, t); }
  LinkChannel* channel() const { return ch_; }
  bool connected() const { return ch_ != nullptr && ch_->connected(); }

  // Earliest time >= `ready` at which the character period allows the next flit.
  Time next_slot(Time ready) const {
    Time t = last_ == kNever ? ready : std::max(ready, last_ + ch_->timing().cp);
    return t;
  }
  // True if STOP is in force at `now` (applies every transition effective at or before now).
  bool stopped(Time now) {
    while (head_ < pending_.size() && pending_[head_].second <= now) {
      if (stopped_ != pending_[head_].first) since_ = pending_[head_].second;
      stopped_ = pending_[head_].first;
      if (++head_ == pending_.size()) { pending_.clear(); head_ = 0; }
    }
    if (head_ >= 64) {  // transitions keep coming while some are ahead: drop the applied ones
      pending_.erase(pending_.begin(), pending_.begin() + head_);
      head_ = 0;
    }
    return stopped_;
  }
  // Same question without applying the transitions (for reports and the monitor).
  bool stopped_at(Time now) const { return state_at(now).first; }
  // (STOP in force at now, since when the current STOP or GO has been in force; 0 = always).
  std::pair<bool, Time> state_at(Time now) const {
    if (head_ == pending_.size()) return {stopped_, since_};  // the usual case, asked for every flit sent ahead
    bool st = stopped_;
    Time since = since_;
    for (std::size_t i = head_; i < pending_.size(); ++i) {
      const auto& [stop, eff] = pending_[i];
      if (eff > now) break;
      if (stop != st) since = eff;
      st = stop;
    }
    return {st, since};
  }
  void send(const Flit& f, Time now) {
    last_ = now;
    ch_->send(f, now);
    if (watcher_) watcher_->poke(watch_id_, now + ch_->timing().cp);  // the next flit is due then
  }
  Time last_departure() const { return last_; }

  void control(bool stop, Time effective) override {
    pending_.emplace_back(stop, effective);
    if (!stop && wake_) wake_(effective);
    if (!stop && watcher_) watcher_->poke(watch_id_, effective);
  }

 private:
  // What every flit sent reads comes first, in the object's first cache line after the vtable
  // pointer (docs/bench.md, size scaling).
  // STOP/GO transitions not yet applied, from head_ on, in effective-time order: a vector
  // emptied when all are applied, so the usual test (none pending) reads this line only.
  std::vector<std::pair<bool, Time>> pending_;
  std::uint32_t head_ = 0;
  bool stopped_ = false;
  LinkChannel* ch_ = nullptr;
  Time last_ = kNever;
  Watcher* watcher_ = nullptr;
  Time since_ = 0;  // effective time of the last applied STOP/GO change
  std::size_t watch_id_ = 0;
  std::function<void(Time)> wake_;
  std::function<Work()> work_;
};

}  // namespace sanvp
