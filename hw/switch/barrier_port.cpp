#include "hw/switch/barrier_port.hpp"

#include "hw/barrier/wire_format.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/switch/switch_port.hpp"

namespace sanvp {

void BarrierPort::ready() {
  ready_ev.fired();
  request();
}

void BarrierPort::request() {
  if (requested_ || !out_.tx.connected()) return;
  requested_ = true;
  sw_.request_output(sw_.barrier_input(), idx_);
}

// The unit holds the output: send its packet from this port's queue.
void BarrierPort::transmit() {
  const Time now = now_ps();
  if (pos_ == 0 && sending_.empty()) {
    // Pick what to send now: queued responses first, then the unit's message for this port.
    if (!queue_.empty()) {
      sending_ = std::move(queue_.front());
      queue_.pop_front();
    } else if (auto m = sw_.barrier_.peek(idx_)) {
      sending_ = barrier::encode_message(*m);
      sw_.barrier_.take(idx_, now);
    } else {  // nothing left (a RELEASE discarded it): give the output back
      done(now);
      return;
    }
  }
  LinkTransmitter& tx = out_.tx;
  const Time t = tx.next_slot(sw_.crossbar_.at_output(out_.grant_time));
  if (now < t) { out_.xmit_ev.at(t); return; }
  if (tx.stopped(now)) return;
  Flit f;
  f.packet = kNoPacket;
  f.data = sending_[pos_];
  f.head = pos_ == 0;
  f.tail = pos_ + 1 == sending_.size();
  tx.send(f, now);
  ++pos_;
  if (!f.tail) { out_.xmit_ev.at(now + tx.channel()->timing().cp); return; }
  sending_.clear();
  pos_ = 0;
  done(now);
}

void BarrierPort::done(Time now) {
  requested_ = false;
  out_.released(now);
  if (!queue_.empty() || sw_.barrier_.peek(idx_)) request();
}

}  // namespace sanvp
