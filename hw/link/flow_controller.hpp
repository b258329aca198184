// FlowController: the receiving end of a link — a slack buffer of `bl` flits with Myrinet
// STOP/GO flow control. STOP goes upstream the moment occupancy reaches `ks`; GO when it drains
// to `kg`. A control symbol takes ld + 2*fc to act on the sender (fc at each flow controller;
// FBS paper section 2.2).
//
// Flits are pushed when they leave the sender, stamped with their arrival time, so the buffer
// may hold flits still on the wire. Occupancy at time t counts only flits arrived by t; at one
// instant, arrivals count before departures. The STOP check runs at an arrival instant only when
// the buffer could reach `ks` then, so an unloaded link costs no events here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "hw/link/flit_ring.hpp"
#include "hw/link/flow_controller_params.hpp"
#include "hw/link/link.hpp"
#include "hw/base/params.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp {

// bl, ks, kg and fc (flow-controller delay, paid by each of the two flow controllers) are
// declared in flow_controller.params.yaml.
struct FlowControlConfig : FlowControlParams {
  std::string set_at;   // where non-default bl/ks/kg/fc were set (scenario file, --set), for errors

  static FlowControlConfig from_params(ParamValues& pv, const std::string& path);
  // Rejects thresholds that cannot prevent overflow or underflow for the given delays. `sd` is
  // the delay from the buffer head to the outgoing link (0 at a node). Throws UserError showing
  // the violated inequality with values.
  void validate(const LinkTiming& lt, Time sd, const std::string& where) const;
  // Flits that still arrive after STOP was sent, sender streaming: ceil((2ld+2fc)/cp) - 1.
  static std::int64_t in_flight_after_stop(const LinkTiming& lt, Time fc);
};

class FlowController : public sc_core::sc_module {
 public:

  using Entry = FlitRing::Entry;
  struct Stats { std::uint64_t stops = 0, gos = 0; int max_occupancy = 0; };
  // Observer for tests: (time, stop?, occupancy at that moment).
  using ControlObserver = std::function<void(Time, bool, int)>;

  SC_HAS_PROCESS(FlowController);
  FlowController(sc_core::sc_module_name name, const FlowControlConfig& cfg);

  void set_upstream(LinkChannel* ch) { upstream_ = ch; }
  LinkChannel* upstream() const { return upstream_; }
  // Called when a flit enters an empty buffer (a new head): the consumer schedules itself.
  void set_head_listener(std::function<void(Time arrival)> fn) { on_head_ = std::move(fn); }
  void set_control_observer(ControlObserver fn) { observer_ = std::move(fn); }

  void push(const Flit& f, Time arrival);  // inline below
  bool empty() const { return ring_.popped() == ring_.pushed(); }
  const Entry& head() const { return ring_.at(ring_.popped()).entry; }
  // Every flit in the buffer or on the wire to it (arrival > now), oldest first.
  FlitRing::Buffered entries() const { return ring_.buffered(); }
  void pop(Time now);
  // Pops the head now, stamped with its later departure: the consumer sent it ahead (see
  // OutputPort::transmit). Not while the occupancy is traced; until `departure` the flit still
  // counts in size_at and occupancy. After this buffer sent STOP, only while no flit can be
  // pushed before its GO (the consumer checks: the upstream transmitter is stopped) and no GO
  // is due yet: the pop that the per-flit model would have made at `departure` decides the GO
  // then, so when this one drains the buffer to kg the GO is sent at `departure` (go_due).
  void pop_ahead(Time departure, Time now) {  // now: the simulation time
    if (occ_sig_.on() || go_at_ != kNever) refuse_ahead();
    depart(departure, now);
    if (stop_sent_ && arrived_in_buffer(departure) <= cfg_.kg) go_ahead(departure);
  }
  void pop_ahead(Time departure) { pop_ahead(departure, now_ps()); }
  // Flits arrived by `now` and not departed (departures at `now` have left).
  int occupancy(Time now) const;
  // Flits pushed and not departed before `now` (on the wire included; departures at `now`
  // count as present, as in the STOP check): what a push at `now` compares with ks.
  int size_at(Time now) const;
  // Flits present at `now` or later (not departed before `now`) that arrive by `t`, counting at
  // most `cap`: an upper bound of the occupancy over [now, t] from the flits pushed so far.
  int arrived_by(Time t, Time now, int cap) const;
  bool stopping() const { return stop_sent_; }
  // A flit popped ahead drained the buffer to kg: the GO goes upstream at this time (kNever: none due).
  Time go_due() const { return go_at_; }
  bool occupancy_traced() const { return occ_sig_.on(); }

  const FlowControlConfig& config() const { return cfg_; }
  int ks() const { return ks_; }  // the STOP threshold, beside the state the per-flit questions read
  const Stats& stats() const { return stats_; }
  void declare_traces();

 private:
  void check_proc();
  void new_head(Time arrival) { if (on_head_) on_head_(arrival); }
  void send_control(bool stop, Time now, int occ);
  void schedule_check(Time t);
  void go_ahead(Time t);
  void send_go_ahead(Time now);
  void check_stop(Time now);
  void rearm(Time now);
  void depart(Time departure, Time now);
  [[noreturn]] void refuse_ahead() const;
  void forget_departed(Time now);
  int departing_from(Time t, Time arrived_by) const;
  int departed_before(Time now) const;
  int arrived_in_buffer(Time now) const;

  // What every flit and every lookahead question reads comes first, in two cache lines: on a
  // large mesh hundreds of buffers are active at once and their state leaves the core's cache
  // between two activations of one port (docs/bench.md, size scaling).
  // Buffered flits, and popped flits whose departure may not be over yet (at or after the last
  // pop's time), in departure order: they count as present until they depart, and at their
  // departure instant for the STOP check (arrivals count first).
  alignas(64) FlitRing ring_;
  mutable std::uint64_t scan_ = 0;  // arrived_by's cursor: first flit found arriving after its last t
  LinkChannel* upstream_ = nullptr;
  int ks_;  // cfg_.ks
  bool stop_sent_ = false;
  TraceSignal occ_sig_;
  std::function<void(Time)> on_head_;

  FlowControlConfig cfg_;
  ControlObserver observer_;
  std::deque<Time> checks_;  // arrival instants to examine, increasing
  Time go_at_ = kNever;      // a GO decided by a pop ahead, sent at this time
  sc_core::sc_event check_ev_;  // the earlier of checks_.front() and go_at_ (rearm)
  Stats stats_;
  TraceSignal stop_sig_;
};

// The per-flit questions of the lookahead (OutputPort, TrafficEndpoint, push) are inline: a call
// each cost more than the answer.

// Popped flits departed before `now` lead the departing range (departures never decrease).
inline int FlowController::departed_before(Time now) const {
  std::uint64_t g = ring_.kept();
  while (g < ring_.popped() && ring_.at(g).departure < now) ++g;
  return static_cast<int>(g - ring_.kept());
}

inline int FlowController::size_at(Time now) const {
  return static_cast<int>(ring_.pushed() - ring_.kept()) - departed_before(now);
}

// The departing and buffered flits are one range in arrival order. A cursor into it, moved from
// where the last question left it, answers the usual questions (t growing flit by flit while an
// output sends ahead) in O(1).
inline int FlowController::arrived_by(Time t, Time now, int cap) const {
  const std::uint64_t base = ring_.kept();
  if (scan_ < base) scan_ = base;
  if (scan_ > ring_.pushed()) scan_ = ring_.pushed();
  while (scan_ < ring_.pushed() && ring_.at(scan_).entry.arrival <= t) ++scan_;
  while (scan_ > base && ring_.at(scan_ - 1).entry.arrival > t) --scan_;
  // Flits departed before now arrived before they departed, but may still lie beyond t.
  const int arrived = static_cast<int>(scan_ - base);
  return std::min(cap, arrived - std::min(arrived, departed_before(now)));
}

// Popped flits that departed before `now` (the simulation time) can never count again: dropping
// them keeps the usual questions (size_at(now), arrived_by(t, now)) free of searches.
inline void FlowController::forget_departed(Time now) {
  while (ring_.kept() < ring_.popped() && ring_.at(ring_.kept()).departure < now) ring_.forget();
}

// Every flit into a switch input or a paused sink comes through here (inline: a call per flit
// was a tenth of a switch's cost).
inline void FlowController::push(const Flit& f, Time arrival) {
  const bool was_empty = empty();
  ring_.push(Entry{arrival, f});
  // Only an arrival that can bring occupancy to ks (or past bl) needs examining at its instant;
  // traced buffers examine every arrival so the occupancy wave is exact. Flits departing at this
  // instant count as present (as in check_proc), so the test does not depend on whether the
  // kernel ran the consumer's pop or this push first.
  const Time now = now_ps();
  forget_departed(now);  // so none departed before now is left: size_at(now) is the ring's size
  if (static_cast<int>(ring_.pushed() - ring_.kept()) >= ks_ || occ_sig_.on()) schedule_check(arrival);
  if (was_empty) new_head(arrival);
}

inline void FlowController::depart(Time departure, Time now) {
  forget_departed(now);
  ring_.pop(departure);
}

}  // namespace sanvp
