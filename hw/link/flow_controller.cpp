#include "hw/link/flow_controller.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

FlowControlConfig FlowControlConfig::from_params(ParamValues& pv, const std::string& path) {
  FlowControlConfig c;
  c.read_params(pv, path);
  for (const char* n : {"bl", "ks", "kg", "fc"}) {
    const std::string o = pv.origin(path, "fc", n);
    if (!o.empty()) c.set_at += fmt::format("{}fc.{} from {}", c.set_at.empty() ? "" : "; ", n, o);
  }
  return c;
}

int FlowControlConfig::in_flight_after_stop(const LinkTiming& lt, Time fc) {
  const Time rt = 2 * lt.ld + 2 * fc;
  return static_cast<int>((rt + lt.cp - 1) / lt.cp) - 1;
}

void FlowControlConfig::validate(const LinkTiming& lt, Time sd, const std::string& where) const {
  const std::string at = where.empty() ? "fc" : where;
  // "(fc.ks from scen.yaml:7:9: params.fc.ks)": the values in the message came from there.
  const std::string from = set_at.empty() ? "" : " (" + set_at + ")";
  auto fail = [&](const std::string& msg) { throw UserError(msg + from); };
  try {
    check_ranges(at + ": ");
  } catch (const UserError& e) {
    fail(e.what());
  }
  if (ks > bl) fail(fmt::format("{}: ks={} > bl={}: STOP threshold must not exceed the buffer (need kg < ks <= bl)", at, ks, bl));
  if (kg >= ks) fail(fmt::format("{}: kg={} >= ks={}: GO threshold must lie below STOP threshold (need 0 <= kg < ks <= bl)", at, kg, ks));
  if (kg < 0) fail(fmt::format("{}: kg={} is negative", at, kg));
  if (lt.cp == 0) fail(fmt::format("{}: link cp must be > 0", at));
  const int n = in_flight_after_stop(lt, fc);
  if (ks + n > bl)
    fail(fmt::format(
        "{}: buffer would overflow: need ks + ceil((2*ld + 2*fc)/cp) - 1 <= bl, but {} + ceil((2*{} + 2*{})/{}) - 1 = {} > {}",
        at, ks, format_time(lt.ld), format_time(fc), format_time(lt.cp), ks + n, bl));
  const Time need = 2 * lt.ld + 2 * fc + sd;
  const Time have = static_cast<Time>(kg + 1) * lt.cp;
  if (have < need)
    fail(fmt::format(
        "{}: receiver would starve after GO: need (kg+1)*cp >= 2*ld + 2*fc + sd, but ({}+1)*{} = {} < 2*{} + 2*{} + {} = {}",
        at, kg, format_time(lt.cp), format_time(have), format_time(lt.ld), format_time(fc), format_time(sd), format_time(need)));
}

FlowController::FlowController(sc_core::sc_module_name name, const FlowControlConfig& cfg) : sc_module(name), cfg_(cfg) {
  SC_METHOD(check_proc);
  sensitive << check_ev_;
  dont_initialize();
}

void FlowController::declare_traces() {
  occ_sig_.declare(name(), "occupancy", 16);
  stop_sig_.declare(name(), "stop_sent", 1);
}

// Popped flits departing at or after `t` that arrived by `arrived_by`. Along the departing
// range arrivals increase (FIFO) and departures never decrease (one consumer at a time), so two
// binary searches find them; the usual questions (all of them, none) need no search.
int FlowController::departing_from(Time t, Time arrived_by) const {
  std::uint64_t first = ring_.kept(), last = ring_.popped();
  if (first == last || ring_.at(last - 1).departure < t) return 0;
  if (ring_.at(first).departure < t) {
    std::uint64_t lo = first, hi = last - 1;  // at(hi).departure >= t
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (ring_.at(mid).departure < t) lo = mid + 1; else hi = mid;
    }
    first = lo;
  }
  if (ring_.at(last - 1).entry.arrival > arrived_by) {
    std::uint64_t lo = first;
    while (lo < last) {
      const std::uint64_t mid = lo + (last - lo) / 2;
      if (ring_.at(mid).entry.arrival <= arrived_by) lo = mid + 1; else last = mid;
    }
  }
  return static_cast<int>(last - first);
}

// Buffered flits arrived by `now`: the few still on the wire are at the back.
int FlowController::arrived_in_buffer(Time now) const {
  std::uint64_t g = ring_.pushed();
  while (g > ring_.popped() && ring_.at(g - 1).entry.arrival > now) --g;
  return static_cast<int>(g - ring_.popped());
}

int FlowController::occupancy(Time now) const { return arrived_in_buffer(now) + departing_from(now + 1, now); }

// Popped flits departed before `now` lead the departing range (departures never decrease).
int FlowController::departed_before(Time now) const {
  std::uint64_t g = ring_.kept();
  while (g < ring_.popped() && ring_.at(g).departure < now) ++g;
  return static_cast<int>(g - ring_.kept());
}

int FlowController::size_at(Time now) const {
  return static_cast<int>(ring_.pushed() - ring_.kept()) - departed_before(now);
}

// The departing and buffered flits are one range in arrival order. A cursor into it, moved from
// where the last question left it, answers the usual questions (t growing flit by flit while an
// output sends ahead) in O(1).
int FlowController::arrived_by(Time t, Time now, int cap) const {
  const std::uint64_t base = ring_.kept();
  if (scan_ < base) scan_ = base;
  if (scan_ > ring_.pushed()) scan_ = ring_.pushed();
  while (scan_ < ring_.pushed() && ring_.at(scan_).entry.arrival <= t) ++scan_;
  while (scan_ > base && ring_.at(scan_ - 1).entry.arrival > t) --scan_;
  // Flits departed before now arrived before they departed, but may still lie beyond t.
  const int arrived = static_cast<int>(scan_ - base);
  return std::min(cap, arrived - std::min(arrived, departed_before(now)));
}

void FlowController::schedule_check(Time t) {
  checks_.push_back(t);
  const Time now = sc_core::sc_time_stamp().value();
  check_ev_.notify(sc_core::sc_time::from_value(checks_.front() - now));
}

void FlowController::push(const Flit& f, Time arrival) {
  const bool was_empty = empty();
  ring_.push(Entry{arrival, f});
  // Only an arrival that can bring occupancy to ks (or past bl) needs examining at its instant;
  // traced buffers examine every arrival so the occupancy wave is exact. Flits departing at this
  // instant count as present (as in check_proc), so the test does not depend on whether the
  // kernel ran the consumer's pop or this push first.
  const Time now = sc_core::sc_time_stamp().value();
  forget_departed(now);
  if (size_at(now) >= cfg_.ks || occ_sig_.on()) schedule_check(arrival);
  if (was_empty && on_head_) on_head_(arrival);
}

void FlowController::check_proc() {
  const Time now = sc_core::sc_time_stamp().value();
  while (!checks_.empty() && checks_.front() <= now) checks_.pop_front();
  const int occ = arrived_in_buffer(now) + departing_from(now, now);  // arrivals at this instant count first
  if (occ > stats_.max_occupancy) stats_.max_occupancy = occ;
  if (occ > cfg_.bl)
    throw SimError(fmt::format("{}: slack buffer overflow at {}: occupancy {} > bl={}", name(), format_time(now), occ, cfg_.bl));
  if (occ_sig_.on()) occ_sig_.change(now, static_cast<std::uint64_t>(occupancy(now)));  // a scan: only when traced
  if (!stop_sent_ && occ >= cfg_.ks) send_control(true, now, occ);
  if (!checks_.empty()) check_ev_.notify(sc_core::sc_time::from_value(checks_.front() - now));
}

// Popped flits that departed before `now` (the simulation time) can never count again: dropping
// them keeps the usual questions (size_at(now), arrived_by(t, now)) free of searches.
void FlowController::forget_departed(Time now) {
  while (ring_.kept() < ring_.popped() && ring_.at(ring_.kept()).departure < now) ring_.forget();
}

void FlowController::depart(Time departure) {
  forget_departed(sc_core::sc_time_stamp().value());
  ring_.pop(departure);
}

void FlowController::pop_ahead(Time departure) {
  if (stop_sent_ || occ_sig_.on())
    throw SimError(fmt::format("{}: flit popped ahead while STOP is in force or occupancy is traced", name()));
  depart(departure);
}

void FlowController::pop(Time now) {
  depart(now);
  const int occ = occupancy(now);
  occ_sig_.change(now, static_cast<std::uint64_t>(occ));
  if (stop_sent_ && occ <= cfg_.kg) send_control(false, now, occ);
}

void FlowController::send_control(bool stop, Time now, int occ) {
  stop_sent_ = stop;
  if (stop) ++stats_.stops; else ++stats_.gos;
  if (observer_) observer_(now, stop, occ);
  stop_sig_.change(now, stop ? 1 : 0);
  if (upstream_) upstream_->send_control(stop, now, 2 * cfg_.fc);
}

}  // namespace sanvp
