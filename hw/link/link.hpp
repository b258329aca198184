// Link: a full-duplex, byte-wide Myrinet-class link. Each direction is a LinkChannel that carries
// data flits downstream (one per character period `cp`, propagation delay `ld`) and STOP/GO
// control symbols upstream (propagation delay `ld`). A channel is a pure delay line: it keeps
// no state besides statistics and its VCD signals, and costs no simulation events.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>

#include "hw/link/flit.hpp"
#include "hw/link/link_faults.hpp"
#include "hw/link/link_params.hpp"
#include "hw/base/observer_list.hpp"
#include "hw/base/params.hpp"
#include "hw/base/trace.hpp"

namespace sanvp {

// LinkTiming {ld, cp}: propagation delay and character period, declared in link.params.yaml
// (scope "link"; both may be set per link with "<link path>.ld").

class LinkTransmitter;
class FlowController;

class alignas(64) LinkChannel {
 public:

  LinkChannel(std::string path, LinkTiming t) : timing_(t), path_(std::move(path)) {}
  void bind(FlitReceiver* rx, ControlReceiver* tx) { rx_ = rx; tx_ = tx; }
  // The LinkTransmitter that sends on this channel (set when it attaches), for monitors.
  void set_transmitter(LinkTransmitter* t) { transmitter_ = t; }
  LinkTransmitter* transmitter() const { return transmitter_; }
  bool connected() const { return rx_ != nullptr; }
  // The receive buffer behind a receiver whose receive() only pushes the flit into it (or
  // consumes it at once) and depends on nothing but the flit and its arrival, so a flit may be
  // handed over before its departure (hw/base/lookahead.hpp). Null for other receivers (a NIC).
  void set_rx_buffer(const FlowController* fc) { rx_buffer_ = fc; }
  const FlowController* rx_buffer() const { return rx_buffer_; }
  // Nothing observes, changes or traces the flits: when one is sent does not show.
  bool plain() const { return plain_; }
  const std::string& path() const { return path_; }
  const LinkTiming& timing() const { return timing_; }

  // Sender puts `f` on the wire at `t` (the current simulated time). With fault injection
  // (link_faults.hpp) the receiver may get it changed, or not at all; the sender, the flit
  // count, the observer and the waves see it as sent.
  void send(const Flit& f, Time t) {
    ++flits_;
    if (plain_) { rx_->receive(f, t + timing_.ld); return; }
    if (observer_) observer_(f, t);
    if (data_sig_.on()) trace_flit(f, t);
    if (faults_) {
      Flit g = f;
      if (!faults_->apply(g, t)) return;
      if (rx_observer_) rx_observer_(g, t);
      rx_->receive(g, t + timing_.ld);
      return;
    }
    if (rx_observer_) rx_observer_(f, t);
    rx_->receive(f, t + timing_.ld);
  }
  // Fault injection on this direction (none by default).
  void set_faults(std::unique_ptr<LinkFaults> f) { faults_ = std::move(f); update_plain(); }
  LinkFaults* faults() const { return faults_.get(); }
  // Receiver's flow controller emits STOP/GO at `t`; `fc_total` is both flow controllers' delay.
  // The sender obeys it ld + fc_total later, and the `stop` row shows it then: a row that rose
  // at `t` (the receiver's stop_sent) would show flits leaving under STOP. Effective times keep
  // the order of emission (one delay per channel), and the tracer queues future changes.
  void send_control(bool stop, Time t, Time fc_total) {
    ++controls_;
    if (control_observer_) control_observer_(stop, t);
    const Time effective = t + timing_.ld + fc_total;
    stopgo_sig_.change(effective, stop ? 1 : 0);
    tx_->control(stop, effective);
  }

  void declare_traces();
  // Observers (tests, timelines; each call adds one): every flit as it leaves the sender.
  void add_observer(std::function<void(const Flit&, Time)> fn) { observer_.add(std::move(fn)); update_plain(); }
  void set_observer(std::function<void(const Flit&, Time)> fn) { add_observer(std::move(fn)); }
  // Every flit the receiver gets (after faults), with its departure time.
  void add_rx_observer(std::function<void(const Flit&, Time)> fn) { rx_observer_.add(std::move(fn)); update_plain(); }
  void set_rx_observer(std::function<void(const Flit&, Time)> fn) { add_rx_observer(std::move(fn)); }
  // Every STOP (true) / GO (false) the receiver's flow controller emits, at its emission time.
  void add_control_observer(std::function<void(bool, Time)> fn) { control_observer_.add(std::move(fn)); }
  std::uint64_t flits() const { return flits_; }
  std::uint64_t controls() const { return controls_; }

 private:
  void trace_flit(const Flit& f, Time t);
  // Every setter of what plain() depends on calls this: the per-flit test reads one flag.
  void update_plain() {
    plain_ = !observer_ && !rx_observer_ && !faults_ && !data_sig_.on() && !kind_sig_.on() && !pkt_sig_.on();
  }
  // What send(), plain() and the lookahead's tests read for every flit come first, in the
  // object's first cache line (the class is line-aligned): on a large mesh hundreds of
  // channels carry flits at once and their state does not stay in the core's cache.
  FlitReceiver* rx_ = nullptr;
  LinkTiming timing_;
  const FlowController* rx_buffer_ = nullptr;
  LinkTransmitter* transmitter_ = nullptr;
  std::uint64_t flits_ = 0;
  bool plain_ = true;
  std::unique_ptr<LinkFaults> faults_;
  TraceSignal data_sig_, kind_sig_, pkt_sig_;
  ObserverList<const Flit&, Time> observer_, rx_observer_;
  ControlReceiver* tx_ = nullptr;
  ObserverList<bool, Time> control_observer_;
  std::uint64_t controls_ = 0;
  TraceSignal stopgo_sig_;
  std::string path_;
};

}  // namespace sanvp
